/**
 * The child process of bench/gcSessions.ts: runs three quiet demos one after another in this one process through the
 * built CLI's `main()` (dist/cli/main.js), as `dicerig serve` or a campaign host runs session after session, and
 * prints one JSON line per session: its CPU (every thread of the process, V8's concurrent marking and sweeping
 * included) and how many full (mark-compact) and young collections it ran.
 *
 * Arguments: the V8 flags to set before the CLI is loaded, as bin/dicerig.js sets them ('' for none), then the demos'
 * per-die roll budget. Runs from dist/ only (`npm run build` first): it loads the bundled CLI beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import type { CliIo } from '../src/cli/io.js';

export interface GcSessionFigures {
  readonly session: number;
  readonly cpuMs: number;
  readonly markCompacts: number;
  readonly markCompactMs: number;
  readonly scavenges: number;
}

type Main = (argv: string[], io: CliIo & { exitCode: number }) => Promise<number>;

const [flags = '', budget = '150'] = process.argv.slice(2);
// Before the CLI is loaded, as the launcher does.
if (flags !== '') setFlagsFromString(flags);
const { main } = (await import(new URL('../cli/main.js', import.meta.url).href)) as { main: Main };

let markCompacts = 0;
let markCompactMs = 0;
let scavenges = 0;
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      markCompacts++;
      markCompactMs += e.duration;
    } else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
  }
});
observer.observe({ entryTypes: ['gc'] });
// The observer is told of collections after the fact, in a later turn of the event loop.
const observed = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

const dir = mkdtempSync(join(tmpdir(), 'dicerig-gc-bench-'));
try {
  for (let session = 1; session <= 3; session++) {
    let errors = '';
    const io = { exitCode: 0, out: (): void => {}, err: (s: string): void => void (errors += s), setExitCode: (c: number): void => void (io.exitCode = c) };
    await observed();
    const before = { cpu: process.cpuUsage(), markCompacts, markCompactMs, scavenges };
    const code = await main(['node', 'dicerig', 'demo', '--seed', String(session), '--budget', budget, '--json', '--db', join(dir, `session-${session}.db`)], io);
    await observed();
    const cpu = process.cpuUsage(before.cpu);
    if (code !== 0) throw new Error(`demo session ${session} ended with exit code ${code}: ${errors.trim()}`);
    const figures: GcSessionFigures = {
      session,
      cpuMs: (cpu.user + cpu.system) / 1000,
      markCompacts: markCompacts - before.markCompacts,
      markCompactMs: markCompactMs - before.markCompactMs,
      scavenges: scavenges - before.scavenges,
    };
    console.log(JSON.stringify(figures));
  }
} finally {
  observer.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
