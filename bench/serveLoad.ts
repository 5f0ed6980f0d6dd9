/**
 * A load generator on a worker thread (its own event loop, as a real client
 * would be): requests against one URL at an offered rate (`rate` per second,
 * up to `concurrency` in flight; 0 = as fast as they come back) for `ms`
 * milliseconds or until told to stop; posts back how many finished, by status.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { url, token, concurrency, ms, rate } = workerData as { url: string; token: string; concurrency: number; ms: number; rate: number };
const statuses: Record<number, number> = {};
let done = 0;
let next = 0;
const t0 = performance.now();
let until = t0 + ms;
// The caller says when its measurement is over.
parentPort?.on('message', () => (until = performance.now()));

async function lane(): Promise<void> {
  while (performance.now() < until) {
    if (rate > 0) {
      // Request k is due at t0 + k / rate: lanes take the next due slot.
      const due = t0 + (next++ * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (performance.now() >= until) break;
    }
    const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await r.arrayBuffer();
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    done++;
  }
}

await Promise.all(Array.from({ length: concurrency }, () => lane()));
parentPort?.postMessage({ done, statuses, seconds: (performance.now() - t0) / 1000 });
