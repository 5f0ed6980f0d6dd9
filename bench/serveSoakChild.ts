/**
 * The child process of bench/serveSoak.ts (started with --expose-gc and the launcher's V8 flags): starts `serve()`
 * in this process on the simulated X-Wing rig at fast timing, keeps one live page (/live WebSocket, as an overlay)
 * connected, and posts rolls through the API, one at a time, cycling through plain dice, an X-Wing attack with
 * focus and lock against a focused defense, and a 9th Age request (which the X-Wing rig refuses with 422: one
 * session reads one kind of dice). After the warm-up and after each measured phase it forces two full collections
 * and prints one JSON line: requests so far, heap used and its compiled code, external (array buffers included) and
 * array buffers, RSS (bytes).
 *
 * The rig runs on the simulated clock: its waits (flip, settle) take no wall time, so 700 requests take about 50 s,
 * while every roll still renders its frames, reads them, stores the throw, answers the API and
 * tells the live page, which is what could hold memory. Arguments: warm-up requests, requests per measured phase,
 * measured phases. Runs from dist/ only (`npm run build` first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapCodeStatistics } from 'node:v8';
import WebSocket from 'ws';
import { serve, simServeConfig } from '../src/server/serve.js';

export interface SoakPoint {
  /** Requests answered so far (rolls done and refusals). */
  readonly requests: number;
  /** Answers by HTTP status so far. */
  readonly statuses: Record<number, number>;
  readonly liveMessages: number;
  readonly heapUsed: number;
  /** Of heapUsed, compiled code and bytecode with their metadata: what V8 compiles as the program warms up, not data the server keeps. */
  readonly compiled: number;
  /** Memory outside the V8 heap that V8 is told of; array buffers included. */
  readonly external: number;
  readonly arrayBuffers: number;
  readonly rss: number;
}

const [warmArg = '100', phaseArg = '200', phasesArg = '2'] = process.argv.slice(2);
const exposed = (globalThis as { gc?: () => void }).gc;
if (exposed === undefined) throw new Error('serveSoakChild needs --expose-gc');
const gc: () => void = exposed;

const TOKEN = 'bench-token-0123456789abcdef';
const FAST = { flipMs: 120, jitterMs: 5, homeMinMs: 20, homeMaxMs: 40, settleMedianMs: 200, settleMinMs: 80, settleMaxMs: 600 };
const REQUESTS: readonly unknown[] = [
  { dice: '2 red, 2 green', by: 'viewer' },
  { attack: { red: 3, focus: true, lock: true }, defense: { green: 2, focus: true }, by: 'bot' },
  { t9a: { dice: 4, target: '4+', reroll: 'failures' }, by: 'viewer' },
];

const dir = mkdtempSync(join(tmpdir(), 'dicerig-soak-bench-'));
const server = await serve({
  config: simServeConfig('xwing', { seed: 99, clock: 'simulated', timing: FAST }),
  dbPath: join(dir, 'rolls.db'),
  host: '127.0.0.1',
  port: 0,
  tokens: { api: TOKEN },
  limits: { apiPerMinute: 10_000_000, apiBurst: 1_000_000 },
});
const live = new WebSocket(`${server.url.replace(/^http/, 'ws')}/live`);
let liveMessages = 0;
live.on('message', () => void liveMessages++);
await new Promise<void>((resolve, reject) => {
  live.once('open', () => resolve());
  live.once('error', reject);
});

let posted = 0;
const statuses: Record<number, number> = {};
async function roll(): Promise<void> {
  const body = REQUESTS[posted % REQUESTS.length];
  const r = await fetch(`${server.url}/api/rolls?wait=30`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await r.json()) as { state?: string; error?: string };
  // A roll done, or the 9th Age request refused by the X-Wing dice: anything else is a fault the figures would hide.
  const expected = 't9a' in (body as object) ? r.status === 422 : r.status === 200 && answer.state === 'done';
  if (!expected) throw new Error(`request ${posted} (${JSON.stringify(body)}) answered ${r.status}: ${JSON.stringify(answer)}`);
  statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  posted++;
}

async function point(): Promise<SoakPoint> {
  // Two collections (the second frees what the first's finalizers released), then a turn for pending callbacks.
  gc();
  await new Promise((r) => setImmediate(r));
  gc();
  const m = process.memoryUsage();
  const code = getHeapCodeStatistics();
  const compiled = code.code_and_metadata_size + code.bytecode_and_metadata_size;
  return { requests: posted, statuses: { ...statuses }, liveMessages, heapUsed: m.heapUsed, compiled, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss };
}

try {
  for (const n of [Number(warmArg), ...Array.from({ length: Number(phasesArg) }, () => Number(phaseArg))]) {
    for (let k = 0; k < n; k++) await roll();
    console.log(JSON.stringify(await point()));
  }
} finally {
  live.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
