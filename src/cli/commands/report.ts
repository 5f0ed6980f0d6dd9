import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { Multiplicity } from '../../analysis/analyze.js';
import { resolveDieRolls } from '../../analysis/dieRolls.js';
import { misreadLines, type SessionVerdicts } from '../../stats/dieVerdict.js';
import { sceneToPng } from '../../report/chart/png.js';
import { ConfigError } from '../../core/errors.js';
import { checkSessionConfig } from '../../session/config.js';
import { verdictLabel } from '../../report/organiserTable.js';
import { reportCharts } from '../../report/reportCharts.js';
import { renderReportHtml } from '../../report/reportHtml.js';
import { buildSessionReport, sessionTitle, type DieResolution, type SessionReport } from '../../report/sessionReport.js';
import { fixed, formatCount, formatLogScientific } from '../../core/format.js';
import { FLEET_DB_HELP } from '../dbOption.js';
import { withStoredSession } from '../storedSessions.js';
import type { RollStore } from '../../store/rollStore.js';
import { requireVerified } from '../../store/requireVerified.js';
import { sessionDieLogs } from '../../store/sessionDieLogs.js';
import { renderTable } from '../../core/textTable.js';
import { loadDice } from '../loadDice.js';
import type { CliIo } from '../io.js';
import { probabilityArg, toJson } from '../options.js';

interface ReportFlags {
  db?: string;
  out?: string;
  json?: boolean;
  diceFile?: string;
  alpha?: number;
  delta?: number;
  multiplicity: Multiplicity;
  serialAlpha?: number;
  allowUnverified?: boolean;
}

/** What `analyze` uses when neither the command line nor the session says. */
const FALLBACK = { alpha: 0.05, delta: 0.03, serialAlpha: 0.01 };

/**
 * The decision settings a session ran with (its stored config's stopping rules, read as `--resume`
 * reads them), so that its report judges the dice as the session did; empty for a session without
 * a session config (one imported from roll logs).
 */
export function sessionSettings(configJson: string): { alpha?: number; delta?: number; serialAlpha?: number } {
  try {
    const { stopping } = checkSessionConfig(JSON.parse(configJson) as unknown);
    return { alpha: stopping.alpha, delta: stopping.delta, serialAlpha: stopping.rigCheckAlpha };
  } catch (e) {
    // Not a session config (an imported session's, or unreadable): the caller falls back.
    if (e instanceof SyntaxError || e instanceof ConfigError) return {};
    throw e;
  }
}

/** The report's file name inside --out; the PNG charts go beside it. */
export const REPORT_FILE = 'report.html';

/** Registers `dicerig report <session>`: a self-contained HTML report of a stored session, with PNG charts beside it. */
export function registerReportCommand(program: Command, io: CliIo): void {
  program
    .command('report')
    .summary('write a self-contained HTML report (and PNG charts) of a stored session')
    .description(
      'Analyses a session from the roll store as `dicerig analyze` would and writes DIR/report.html: per die the verdict and what it means, ' +
        'face and symbol frequencies against the expected odds with simultaneous intervals, the anytime-valid evidence as rolls accumulated, ' +
        'the transition heatmap and the game figures; per session the rig health, homogeneity across dice and a table to print for a ' +
        'tournament organiser. The page needs no network; each chart is also written as a PNG beside it.',
    )
    .argument('<session>', 'session id or name')
    .option('--db <path>', FLEET_DB_HELP)
    .option('--out <dir>', 'folder to write the report into (created if missing; default: dicerig-report-<session id>)')
    .option('--json', 'print what was written and the verdicts as JSON')
    .option('--dice-file <file>', 'JSON/YAML file with user-defined dice (for sessions of user-defined types)')
    .option('--alpha <p>', 'error rate of each verdict (default: the session’s own, else 0.05)', probabilityArg)
    .option('--delta <d>', 'FAIR_WITHIN margin: every face within expected ± delta (absolute probability; default: the session’s own, else 0.03)', probabilityArg)
    .addOption(new Option('--multiplicity <method>', 'control across dice: holm (family-wise) or bh (false discovery rate, for screening)').choices(['holm', 'bh']).default('holm'))
    .option('--serial-alpha <p>', 'family-wise error rate of each die’s rig checks (default: the session’s own, else 0.01)', probabilityArg)
    .option('--allow-unverified', 'write the report even when the store fails verification (a damaged or tampered store), with a warning')
    .action(async (sessionKey: string, flags: ReportFlags) => {
      const report = await readReport(sessionKey, flags, (line) => io.err(`${line}\n`));
      const charts = reportCharts(report);
      const dir = flags.out ?? `dicerig-report-${report.session.id}`;
      mkdirSync(dir, { recursive: true });
      const html = join(dir, REPORT_FILE);
      writeFileSync(html, renderReportHtml(report, charts));
      const pngs = charts.map((c) => {
        const file = join(dir, c.fileName);
        writeFileSync(file, sceneToPng(c.scene));
        return file;
      });
      io.out(flags.json ? `${toJson(reportJson(report, html, pngs))}\n` : reportText(report, html, pngs.length));
    });
}

function readReport(sessionKey: string, flags: ReportFlags, warn: (line: string) => void): Promise<SessionReport> {
  return withStoredSession(flags.db, sessionKey, warn, ({ store, session }) => {
    requireVerified(store, session.id, flags.allowUnverified === true, warn, 'written');
    const series = store.dieRolls(session.id);
    const dice = loadDice(flags.diceFile);
    const rolls = sessionDieLogs(series, sessionTitle(session)).map((log) => resolveDieRolls(log, dice));
    const channels = new Map(series.map((s) => [s.die.label, [...new Set(s.channels.filter((c) => c !== null))].sort((x, y) => x - y)]));
    const own = sessionSettings(session.configJson);
    return buildSessionReport(
      {
        session,
        rig: session.rigId === null ? null : (store.getRig(session.rigId) ?? null),
        counts: store.counts(session.id),
        events: store.events(session.id),
        throwTimes: store.throwTimes(session.id),
        rolls,
        channels,
        generatedAt: Date.now(),
        verdicts: (store.storedVerdicts(session.id)?.verdicts as SessionVerdicts | undefined) ?? null,
        resolution: resolutionOf(store, session.id),
        rollEvents: new Map([...store.rollEvents(session.id)].map(([dieId, events]) => [store.getDie(dieId)?.label ?? String(dieId), events])),
      },
      {
        alpha: flags.alpha ?? own.alpha ?? FALLBACK.alpha,
        delta: flags.delta ?? own.delta ?? FALLBACK.delta,
        multiplicity: flags.multiplicity,
        serialAlpha: flags.serialAlpha ?? own.serialAlpha ?? FALLBACK.serialAlpha,
      },
    );
  });
}

/** Each die's rolls per face, read or reviewed, its unresolved rolls, and how many of its read rolls a re-read resolved, from the store. */
function resolutionOf(store: RollStore, sessionId: number): DieResolution[] {
  const out: DieResolution[] = [];
  // Each `reread` event names the dice declined at first in its throw; those not kept unresolved were resolved by the re-read.
  const declinedAtFirst = new Map<string, number>();
  // The re-read counts are known when the session re-read a die, or ended a run counting its declined dice (none declined: none re-read).
  let rereadsKnown = false;
  for (const e of store.events(sessionId)) {
    if (e.kind === 'run-ended' && typeof (e.detail as { totals?: { declined?: unknown } }).totals?.declined === 'number') rereadsKnown = true;
    if (e.kind !== 'reread') continue;
    rereadsKnown = true;
    const dice = (e.detail as { dice?: unknown }).dice;
    if (Array.isArray(dice)) for (const label of dice) if (typeof label === 'string') declinedAtFirst.set(label, (declinedAtFirst.get(label) ?? 0) + 1);
  }
  for (const [dieId, events] of store.rollEvents(sessionId)) {
    const faces = new Map<string, { read: number; reviewed: number }>();
    let unresolved = 0;
    for (const e of events) {
      if (e.kind === 'unresolved') {
        unresolved++;
        continue;
      }
      const face = e.faceId ?? e.symbol ?? '?';
      const f = faces.get(face) ?? { read: 0, reviewed: 0 };
      if (e.kind === 'roll') f.read++;
      else {
        f.reviewed++;
        unresolved--;
      }
      faces.set(face, f);
    }
    const label = store.getDie(dieId)?.label ?? String(dieId);
    const kept = events.filter((e) => e.kind === 'unresolved').length;
    const rereadResolved = rereadsKnown ? Math.max(0, (declinedAtFirst.get(label) ?? 0) - kept) : undefined;
    out.push({
      label,
      unresolved,
      faces: [...faces.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([face, f]) => ({ face, ...f })),
      ...(rereadResolved !== undefined ? { rereadResolved } : {}),
    });
  }
  return out;
}

function reportText(report: SessionReport, html: string, charts: number): string {
  const s = report.session;
  const rolls = report.dice.reduce((n, d) => n + d.analysis.n, 0);
  const lines = [
    `Report of ${sessionTitle(s)}${s.simulated ? ', SIMULATED' : ''}: ${report.dice.length} ${report.dice.length === 1 ? 'die' : 'dice'}, ${formatCount(rolls)} counted rolls; judged at α = ${report.analysis.alpha}, FAIR_WITHIN ±${report.analysis.delta}.`,
    renderTable(
      ['die', 'verdict', 'rolls', 'certified ±'],
      report.dice.map((d) => [d.analysis.label, verdictLabel(d.analysis.verdict), formatCount(d.analysis.n), fixed(d.certifiedBound)]),
      2,
      '  ',
    ).trimEnd(),
    ...storedVerdictLines(report),
    `Wrote ${html} and ${charts} PNG charts beside it.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The session's own verdicts, as it made them: threshold, e-value, anytime-valid p; resolved, reviewed and unresolved rolls. */
function storedVerdictLines(report: SessionReport): string[] {
  const v = report.verdicts;
  if (v === null) return [];
  return [
    `Verdicts as the session made them (not recomputed): ${v.errorControl.statement}`,
    renderTable(
      ['die', 'verdict', 'e-value', 'threshold', 'anytime p', 'resolved', 'reviewed', 'unresolved'],
      v.dice.map((d) => [d.label, d.kind, formatLogScientific(d.logE), formatLogScientific(d.logThreshold), formatLogScientific(d.logAnytimeP), formatCount(d.resolved), formatCount(d.reviewed), formatCount(d.unresolved)]),
      2,
      '  ',
    ).trimEnd(),
    'Fixed-n p-values in the report are descriptive only: the session stopped each die when its monitor decided.',
    ...misreadLines(v.dice),
    ...report.resolution.map(
      (r) => `  ${r.label}${r.rereadResolved !== undefined ? ` (${formatCount(r.rereadResolved)} read after a re-read)` : ''}: ${r.faces.map((f) => `${f.face} ${formatCount(f.read)}${f.reviewed > 0 ? ` (+${formatCount(f.reviewed)} reviewed)` : ''}`).join(', ')}; ${formatCount(r.unresolved)} unresolved`,
    ),
  ];
}

function reportJson(report: SessionReport, html: string, charts: readonly string[]) {
  const s = report.session;
  return {
    html,
    charts,
    session: { id: s.id, name: s.name, simulated: s.simulated, origin: s.origin, state: s.state, headHash: s.headHash },
    settings: { alpha: report.analysis.alpha, delta: report.analysis.delta, multiplicity: report.analysis.multiplicity, serialAlpha: report.analysis.serialAlpha },
    dice: report.dice.map((d) => ({
      label: d.analysis.label,
      type: d.analysis.die.id,
      rolls: d.analysis.n,
      verdict: d.analysis.verdict.kind,
      sentence: d.analysis.sentence,
      certifiedWithin: d.certifiedBound,
      anytime: d.analysis.anytime,
      ...(d.stored ? { sessionVerdict: d.stored } : {}),
      game: d.analysis.game.map((g) => ({ name: g.figure.name, rate: g.result.rate, expected: g.result.expected, delta: g.result.delta })),
    })),
    rigHealth: report.rigHealth,
    ...(report.verdicts ? { errorControl: report.verdicts.errorControl } : {}),
    resolution: report.resolution,
  };
}
