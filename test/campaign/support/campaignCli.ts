import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStoreForReading } from '../../../src/store/openStore.js';
import { runCli } from '../../cli/runCli.js';
import { DICERIG } from '../../support/builtCli.js';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface CliEnd {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The dicerig command in a process of its own (a rig host). */
export function cli(args: readonly string[], timeoutMs = 240_000): Promise<CliEnd> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DICERIG, ...args], { cwd: repoRoot, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The CLI in this process (create, status, report: the fleet store's side), with the same exit code and
 * output; only the rig hosts need processes of their own, and each tsx start-up costs a second or two of CPU.
 */
export async function cliHere(args: readonly string[]): Promise<CliEnd> {
  const r = await runCli(...args);
  return { code: r.code, stdout: r.out, stderr: r.err };
}

export function writeBox(dir: string, dice: readonly string[], type = 'd6'): string {
  const file = join(dir, 'box.csv');
  writeFileSync(file, `label,die\n${dice.map((d) => `${d},${type}`).join('\n')}\n`);
  return file;
}

type Facts = { sessions: Map<string, { throwCount: number; headHash: string }>; rolls: Map<string, number>; unresolved: Map<string, number> };

/** What a local roll store holds of a campaign's sessions: chain head and throws per session, counted rolls per session, die and symbol, unresolved rolls per session and die. */
export function localCampaignFacts(db: string): Facts {
  const opened = openStoreForReading(db);
  try {
    const sessions = new Map<string, { throwCount: number; headHash: string }>();
    const rolls = new Map<string, number>();
    const unresolved = new Map<string, number>();
    for (const s of opened.store.sessions()) {
      if (s.name === null || !s.name.startsWith('campaign ')) continue;
      sessions.set(s.name, { throwCount: s.throwCount, headHash: s.headHash });
      for (const u of opened.store.unresolvedRolls(s.id)) {
        const key = `${s.name}|${u.dieLabel}`;
        unresolved.set(key, (unresolved.get(key) ?? 0) + 1);
      }
      for (const series of opened.store.dieRolls(s.id)) {
        for (const symbol of series.symbols) {
          const key = `${s.name}|${series.die.label}|${symbol}`;
          rolls.set(key, (rolls.get(key) ?? 0) + 1);
        }
      }
    }
    return { sessions, rolls, unresolved };
  } finally {
    opened.close();
  }
}

interface ReportJson {
  sessions: { batchId: number; sessionName: string; throwCount: number; headHash: string | null; rig: string }[];
  rolls: { batchId: number; label: string; symbol: string; count: number }[];
  unresolvedRolls: { batchId: number; label: string; count: number }[];
}

/** The same facts as the campaign report gives them from the fleet store. */
export function reportFacts(report: ReportJson): Facts {
  const names = new Map(report.sessions.map((s) => [s.batchId, s.sessionName]));
  const sessions = new Map(report.sessions.map((s) => [s.sessionName, { throwCount: s.throwCount, headHash: s.headHash ?? '' }]));
  const rolls = new Map<string, number>();
  for (const r of report.rolls) rolls.set(`${names.get(r.batchId)}|${r.label}|${r.symbol}`, r.count);
  const unresolved = new Map<string, number>();
  for (const u of report.unresolvedRolls) unresolved.set(`${names.get(u.batchId)}|${u.label}`, u.count);
  return { sessions, rolls, unresolved };
}

/** The union of several local stores' facts (no session is in two stores). */
export function unionOf(facts: readonly Facts[]): Facts {
  const sessions = new Map<string, { throwCount: number; headHash: string }>();
  const rolls = new Map<string, number>();
  const unresolved = new Map<string, number>();
  for (const f of facts) {
    for (const [k, v] of f.sessions) {
      if (sessions.has(k)) throw new Error(`session ${k} is in two local stores`);
      sessions.set(k, v);
    }
    for (const [k, v] of f.rolls) rolls.set(k, v);
    for (const [k, v] of f.unresolved) unresolved.set(k, v);
  }
  return { sessions, rolls, unresolved };
}

export function sorted<T>(m: Map<string, T>): [string, T][] {
  return [...m].sort((a, b) => a[0].localeCompare(b[0]));
}
