/**
 * `dicerig serve` figures, on the simulated rig and camera in real time:
 *
 * - latency from a die read (the server's event, stamped when the vision
 *   pipeline returns) to the overlay showing that die (a User Timing mark the
 *   overlay sets in the animation frame after it drew the die), in Chromium on
 *   loopback: median and p99; target < 100 ms. Both stamps are epoch
 *   milliseconds (Node's Date.now, Chromium's timeOrigin + now), on one machine;
 * - requests per second the API sustains (GET /api/rolls/:id with its token
 *   check, rate limit and JSON) from a load generator in another process while
 *   a fairness run goes on, and the run's own host time per throw with and
 *   without that load (ratio; target ~1), measured both ways in one run: as
 *   wall time (performance.now, what serve measured before) and as CPU time
 *   (cpuStopwatch, what serve measures now).
 *
 * Prints; asserts nothing. These machines are shared: compare figures from one run.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { chromium } from 'playwright-core';
import { serve, simServeConfig, type RunningServer } from '../src/server/serve.js';
import { cpuStopwatch } from '../src/session/hostTiming.js';
import { median, percentile, report } from './measure.js';

const TOKEN = 'bench-token-0123456789abcdef';
const CHROMIUM = '/usr/bin/chromium';
const FAST = { flipMs: 120, jitterMs: 5, homeMinMs: 20, homeMaxMs: 40, settleMedianMs: 200, settleMinMs: 80, settleMaxMs: 600 };

async function start(dir: string, name: string, stopwatch?: () => number): Promise<RunningServer> {
  return serve({
    ...(stopwatch ? { stopwatch } : {}),
    config: simServeConfig('xwing', { seed: 99, clock: 'system', timing: FAST }),
    dbPath: join(dir, `${name}.db`),
    host: '127.0.0.1',
    port: 0,
    tokens: { api: TOKEN },
    limits: { apiPerMinute: 10_000_000, apiBurst: 1_000_000 },
  });
}

async function post(url: string, body: unknown): Promise<{ id: string }> {
  const r = await fetch(`${url}/api/rolls?wait=10`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await r.json()) as { id: string };
}

async function overlayLatency(dir: string, rolls: number): Promise<number[] | string> {
  if (!existsSync(CHROMIUM)) return `skipped: no Chromium at ${CHROMIUM}`;
  const server = await start(dir, 'latency');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 400 } });
    // hold=0: each roll is shown as soon as it starts (by default a result holds the panel 6 s and the next roll's dice wait).
    await page.goto(`${server.url}/overlay?hold=0`);
    await page.waitForFunction('document.getElementById("connection").hidden === true');
    for (let i = 0; i < rolls; i++) await post(server.url, { dice: '2 red, 2 green' });
    await page.waitForTimeout(300);
    // Marks are named "die <roll> <frame> <channel> <server epoch ms>".
    const marks = (await page.evaluate(
      '(() => performance.getEntriesByType("mark").filter((m) => m.name.startsWith("die ")).map((m) => [m.name, performance.timeOrigin + m.startTime]))()',
    )) as [string, number][];
    return marks.map(([name, shownAt]) => shownAt - Number(name.split(' ')[4]));
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Runs the fairness loop for `throws` throws (optionally under API load) and returns its host ms per throw and the load's figures. */
async function fairnessUnderLoad(server: RunningServer, throws: number, rate: number | undefined, rollId: string): Promise<{ host: readonly number[]; rps?: number; statuses?: Record<number, number> }> {
  const c = server.controller;
  await c.setMode('fairness');
  const before = c.fairness.totals?.throws ?? 0;
  let load: ChildProcess | undefined;
  let result: Promise<{ done: number; statuses: Record<number, number>; seconds: number }> | undefined;
  if (rate !== undefined) {
    // Long enough to cover the throws; stopped when they are done.
    const args = { url: `${server.url}/api/rolls/${rollId}`, token: TOKEN, concurrency: 16, ms: throws * 1500, rate };
    const child = fork(new URL('./serveLoad.js', import.meta.url), [JSON.stringify(args)], { stdio: 'inherit' });
    load = child;
    result = new Promise((resolve, reject) => {
      child.once('message', (m) => resolve(m as { done: number; statuses: Record<number, number>; seconds: number }));
      child.once('error', reject);
    });
    // The load is on before the first measured throw.
    await new Promise((r) => setTimeout(r, 500));
  }
  await c.start();
  while ((c.fairness.totals?.throws ?? 0) < before + throws) await new Promise((r) => setTimeout(r, 50));
  await c.pause();
  const host = c.lastHostMsPerThrow;
  if (!load || !result) return { host };
  load.send('stop');
  const r = await result;
  return { host, rps: r.done / r.seconds, statuses: r.statuses };
}

/** Host ms per throw without and with API load, on a server whose run measures it with `stopwatch`. */
async function loadRows(dir: string, name: string, stopwatch: () => number, what: string): Promise<string[][]> {
  const server = await start(dir, name, stopwatch);
  try {
    const warm = await post(server.url, { dice: '1 red' });
    const throws = 16;
    const quiet = await fairnessUnderLoad(server, throws, undefined, warm.id);
    const q = median(quiet.host);
    const rows: string[][] = [[`${what}: no load`, `${q.toFixed(2)} ms`, 'median host ms per throw of the loop’s own work (settle, vision, store, stats)']];
    // Offered rates, then as fast as the server answers: the rate it sustains with the run's host time unchanged is the last one whose ratio stays near 1.
    for (const rate of [100, 0]) {
      const loaded = await fairnessUnderLoad(server, throws, rate, warm.id);
      const l = median(loaded.host);
      rows.push([
        `${what}: ${rate === 0 ? 'saturating (16 in flight)' : `offered ${rate} req/s`}`,
        `${(loaded.rps ?? 0).toFixed(0)} req/s`,
        `host ms/throw ${l.toFixed(2)} ms, ratio ${(l / q).toFixed(2)} (target ~1); statuses ${JSON.stringify(loaded.statuses)}`,
      ]);
    }
    return rows;
  } finally {
    await server.close();
  }
}

/** Requests per second the API sustains while a fairness run goes on, and the run's host time per throw with and without that load. */
export async function runServeLoadBench(dir: string): Promise<void> {
  const wall = await loadRows(dir, 'load-wall', () => performance.now(), 'wall time (before)');
  const cpu = await loadRows(dir, 'load-cpu', cpuStopwatch, 'CPU time (now)');
  report('serve: API (GET /api/rolls/:id) while a fairness run goes on (16 throws per row, simulated rig in real time, load from another process)', [...wall, ...cpu]);
}

export async function runServeBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-serve-bench-'));
  try {
    const latency = await overlayLatency(dir, 25);
    report(
      'serve: die read -> overlay shows it (Chromium, loopback, 25 rolls of 4 dice on the simulated rig)',
      typeof latency === 'string'
        ? [['latency', latency]]
        : [
            ['dice shown', String(latency.length)],
            ['median', `${median(latency).toFixed(1)} ms`, 'target < 100 ms'],
            ['p99', `${percentile(latency, 0.99).toFixed(1)} ms`, 'target < 100 ms'],
          ],
    );

    await runServeLoadBench(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
