import { resolveDieRolls } from '../../../src/analysis/dieRolls.js';
import type { DieRolls } from '../../../src/rolllog/types.js';
import { allDice } from '../../../src/dice/catalogue.js';
import { buildSessionReport, type ReportInput, type SessionReport } from '../../../src/report/sessionReport.js';
import { RollStore } from '../../../src/store/rollStore.js';
import { sessionDieLogs } from '../../../src/store/sessionDieLogs.js';

/** Counts per label from raw values: the test's own tally, independent of the analysis. */
export function tally(values: readonly (string | null)[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const v of values) if (v !== null) t[v] = (t[v] ?? 0) + 1;
  return t;
}

/** A stored session's rolls, the report built from them, and each die's raw faces and symbols as stored. */
export function reportOf(db: string, sessionId: number, extra: Partial<ReportInput> = {}): { report: SessionReport; rolls: DieRolls[]; raw: Map<string, { faces: (string | null)[]; symbols: string[] }> } {
  const store = RollStore.open(db, { mustExist: true });
  try {
    const session = store.findSession(String(sessionId));
    const series = store.dieRolls(session.id);
    const rolls = sessionDieLogs(series, `session ${session.id}`).map((log) => resolveDieRolls(log, allDice()));
    const report = buildSessionReport({
      session,
      rig: session.rigId === null ? null : (store.getRig(session.rigId) ?? null),
      counts: store.counts(session.id),
      events: store.events(session.id),
      rolls,
      channels: new Map(series.map((s) => [s.die.label, [...new Set(s.channels.filter((c) => c !== null))]])),
      generatedAt: Date.UTC(2024, 0, 2, 3, 4, 5),
      ...extra,
    });
    return { report, rolls, raw: new Map(series.map((s) => [s.die.label, { faces: s.faces, symbols: s.symbols }])) };
  } finally {
    store.close();
  }
}
