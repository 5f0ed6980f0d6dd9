/**
 * Garbage collection of a process that runs session after session (`dicerig serve`, a campaign host's batches, a test
 * worker): three quiet 150-roll demos one after another in one child process (bench/gcSessionsChild.ts, through the
 * built CLI's `main()`), once with the V8 flags bin/dicerig.js sets and once without them. Per session: CPU (all the
 * process's threads) and full mark-compacts; then the ratios session 3 / session 1 (target <= 1: a later session costs
 * no more than the first) and with / without the flags.
 *
 * Each child's heap starts afresh, so its first session shows the start-up limit and the later ones the limit V8 set
 * from what lived (why it is tight, and how the flag loosens it: bin/dicerig.js). Which session the run of
 * mark-compacts starts in varies from run to run (2 or 3, now and then 1). Prints; asserts nothing. These machines
 * are shared: compare the ratios of one run.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GcSessionFigures } from './gcSessionsChild.js';
import { report } from './measure.js';

const LAUNCHER = fileURLToPath(new URL('../../bin/dicerig.js', import.meta.url));
const CHILD = fileURLToPath(new URL('./gcSessionsChild.js', import.meta.url));
const BUDGET = 150;

/** The V8 flags the launcher sets (its `setFlagsFromString` calls), joined; '' when it sets none. */
export function launcherFlags(source: string): string {
  return [...source.matchAll(/setFlagsFromString\(\s*(['"`])(.*?)\1\s*\)/g)].map((m) => m[2]).join(' ');
}

function threeSessions(flags: string): GcSessionFigures[] {
  const out = execFileSync(process.execPath, [CHILD, flags, String(BUDGET)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as GcSessionFigures);
}

const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const ratio = (a: number, b: number): string => (a / b).toFixed(2);

function sessionRows(label: string, runs: readonly GcSessionFigures[]): string[][] {
  return runs.map((r) => [`${label}: session ${r.session}`, s(r.cpuMs), `${r.markCompacts} mark-compacts (${r.markCompactMs.toFixed(0)} ms in their pauses), ${r.scavenges} scavenges`]);
}

export function runGcSessionsBench(): void {
  const flags = launcherFlags(readFileSync(LAUNCHER, 'utf8'));
  const title = `Sessions one after another in one process: CPU and full collections, three ${BUDGET}-roll demos (quiet, main() of dist/cli)`;
  if (flags === '') {
    const without = threeSessions('');
    report(title, [...sessionRows('no flags (bin/dicerig.js sets none)', without), ['session 3 / session 1 CPU', ratio(without[2]!.cpuMs, without[0]!.cpuMs), 'target <= 1']]);
    return;
  }
  const withFlags = threeSessions(flags);
  const without = threeSessions('');
  const total = (runs: readonly GcSessionFigures[]): number => runs.reduce((a, r) => a + r.cpuMs, 0);
  report(title, [
    ...sessionRows(`with ${flags}`, withFlags),
    ...sessionRows('without', without),
    ['session 3 / session 1 CPU', ratio(withFlags[2]!.cpuMs, withFlags[0]!.cpuMs), `with the flags; without ${ratio(without[2]!.cpuMs, without[0]!.cpuMs)} (target <= 1)`],
    [
      'with / without CPU',
      ratio(total(withFlags), total(without)),
      `all three sessions; session 1 ${ratio(withFlags[0]!.cpuMs, without[0]!.cpuMs)}, 2 ${ratio(withFlags[1]!.cpuMs, without[1]!.cpuMs)}, 3 ${ratio(withFlags[2]!.cpuMs, without[2]!.cpuMs)}`,
    ],
  ]);
}

// Run directly (from dist/, built): `node dist/bench/gcSessions.js`.
if (import.meta.url === `file://${process.argv[1]}`) runGcSessionsBench();
