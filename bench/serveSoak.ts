/**
 * Does `dicerig serve` hold its memory over many rolls? In a child process (bench/serveSoakChild.ts, started with
 * --expose-gc and the V8 flags bin/dicerig.js sets) an in-process `serve()` on the simulated X-Wing rig, with one live
 * page connected, answers API rolls one after another (plain dice; an X-Wing attack with focus and lock against a
 * focused defense; a 9th Age request, which X-Wing dice refuse with 422: one session reads one kind of dice). After
 * the warm-up and after each measured phase the child collects twice and reports heap used (and of it V8's compiled
 * code and bytecode), external memory (array buffers included) and RSS. Prints the figures and, for each measured phase, heap used growth per 100 requests (target ~0:
 * bounded), the same outside compiled code, and external growth.
 *
 * What a roll leaves in memory is bounded by design: the controller keeps the last 200 ended rolls with their dice
 * crops (rigController.ts KEEP_ROLLS, test/server/rollMemoryBound.test.ts; older answers are read back from the roll
 * store, rollRecords.ts), the last 8 read frames (liveFrames.ts) and 10 rolls of history; the live hub holds no
 * per-page queue beyond a socket's send buffer (a page past 4 MB unsent is dropped, hub.ts) and forgets a page when
 * it leaves; the rate limits hold at most `maxKeys` clients (rateLimit.ts). With 1 request in 3 refused, the 200 kept
 * rolls are full at about 300 requests: the warm-up fills them, so the measured phases show what a roll adds beyond
 * the bounds.
 *
 * Measured on 2026-12-07: heap used after GC grew 0.23, 0.38, 0.19, 0.06 MB per 400 requests once the kept rolls were
 * full (one child, 100 + 5 x 400 requests), slowing down as V8 finished compiling; heap snapshots at 400 and 1,000
 * requests differed by 0.59 MB of compiled code and 0.09 MB of V8's weak lists, +24 plain objects and +34 strings: no
 * live object of the server grows with the rolls (the two arrays that grew, 1.8 -> 2.9 kB, are this process's own
 * client's: fetch's resource timing buffer, which Node caps at 250 entries, and undici's request queue). Two runs of this bench (300 + 2 x 200): phase 1 +0.08, +0.14 and
 * phase 2 +0.08, -0.00 MB per 100 requests (outside compiled code within +-0.1 MB: the noise of a heap after GC).
 * External memory levels off once the 200 rolls are kept (~106 MB, ~61 MB of it array buffers: the kept crops
 * ~35 MB, the 8 frames, the camera's). The same child once on the D6 rig instead (9th Age 4 dice at 4+ rerolling
 * failures, 2d6 + d3, a fumble; every request rolled; not part of this bench): +0.03 and +0.07 MB per 100 requests,
 * external level at ~97 MB.
 *
 * The rig runs on the simulated clock (its flips and settling take no wall time), so this takes about 50 s of wall
 * time; every roll still renders, reads, stores, answers and publishes. Prints; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launcherFlags } from './gcSessions.js';
import type { SoakPoint } from './serveSoakChild.js';
import { report } from './measure.js';

const LAUNCHER = fileURLToPath(new URL('../../bin/dicerig.js', import.meta.url));
const CHILD = fileURLToPath(new URL('./serveSoakChild.js', import.meta.url));
const WARM = 300;
const PHASE = 200;

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const signedMb = (bytes: number): string => (mb(bytes).startsWith('-') ? mb(bytes) : `+${mb(Math.abs(bytes))}`);

export function runServeSoakBench(): void {
  const flags = launcherFlags(readFileSync(LAUNCHER, 'utf8'));
  const out = execFileSync(process.execPath, ['--expose-gc', ...flags.split(' ').filter((f) => f !== ''), CHILD, String(WARM), String(PHASE), '2'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const points = out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SoakPoint);
  const [warm, ...phases] = points as [SoakPoint, ...SoakPoint[]];
  const growth = phases.flatMap((p, i) => {
    const before = i === 0 ? warm : (phases[i - 1] as SoakPoint);
    const per100 = (a: number, b: number): string => signedMb(((b - a) * 100) / (p.requests - before.requests));
    return [
      [`phase ${i + 1}: heap used growth per 100 requests`, per100(before.heapUsed, p.heapUsed), 'target ~0 (bounded)'],
      ['  outside compiled code', per100(before.heapUsed - before.compiled, p.heapUsed - p.compiled), 'what the server keeps, not what V8 compiled'],
      ['  external', per100(before.external, p.external), 'target ~0'],
    ];
  });
  report(`serve: memory after GC over ${points.at(-1)?.requests ?? 0} API requests (simulated X-Wing rig, one live page, ${flags === '' ? 'no V8 flags' : flags})`, [
    ...points.map((p, i) => [
      `${i === 0 ? 'after warm-up' : `after phase ${i}`}, ${p.requests} requests`,
      mb(p.heapUsed),
      `heap used (compiled code ${mb(p.compiled)}); external ${mb(p.external)} (array buffers ${mb(p.arrayBuffers)}); RSS ${mb(p.rss)}; answers ${JSON.stringify(p.statuses)}, ${p.liveMessages} live messages`,
    ]),
    ...growth,
  ]);
}

// Run directly (from dist/, built): `node dist/bench/serveSoak.js`.
if (import.meta.url === `file://${process.argv[1]}`) runServeSoakBench();
