/**
 * A load generator in a child process (its own process, as a real client
 * would be: on a worker thread its CPU time would count as the server
 * process's, which is what the fairness run's host time is measured with): requests against one URL at an offered rate (`rate` per second,
 * up to `concurrency` in flight; 0 = as fast as they come back) for `ms`
 * milliseconds or until told to stop; posts back how many finished, by status.
 */
const { url, token, concurrency, ms, rate } = JSON.parse(process.argv[2] as string) as { url: string; token: string; concurrency: number; ms: number; rate: number };
const statuses: Record<number, number> = {};
let done = 0;
let next = 0;
const t0 = performance.now();
let until = t0 + ms;
// The caller says when its measurement is over.
process.on('message', () => (until = performance.now()));

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
process.send?.({ done, statuses, seconds: (performance.now() - t0) / 1000 }, () => process.disconnect());
