// The round trips a driver keeps for linkStats(): the newest ROUND_TRIPS_KEPT, oldest first, however many came
// (the recorder trims its list in batches rather than on every command, which must not show in a snapshot).
import { describe, expect, it } from 'vitest';
import { LinkStatsRecorder, ROUND_TRIPS_KEPT } from '../../src/rig/linkStats.js';

describe('the round trips a link keeps', () => {
  it('are the newest ones in the order they came, at every count from none to well past the limit', () => {
    const stats = new LinkStatsRecorder();
    for (let n = 1; n <= 3 * ROUND_TRIPS_KEPT + 7; n++) {
      stats.roundTrip(n);
      const kept = stats.snapshot().roundTripsMs;
      const first = Math.max(1, n - ROUND_TRIPS_KEPT + 1);
      expect(kept.length).toBe(n - first + 1);
      expect(kept[0]).toBe(first);
      expect(kept.at(-1)).toBe(n);
    }
    expect(stats.snapshot().roundTripsMs).toEqual(Array.from({ length: ROUND_TRIPS_KEPT }, (_, i) => 2 * ROUND_TRIPS_KEPT + 8 + i));
  });

  it('are a copy: a snapshot does not change when more come', () => {
    const stats = new LinkStatsRecorder();
    for (let n = 1; n <= 2 * ROUND_TRIPS_KEPT; n++) stats.roundTrip(n);
    const before = stats.snapshot().roundTripsMs;
    const copy = [...before];
    for (let n = 0; n < ROUND_TRIPS_KEPT; n++) stats.roundTrip(-n);
    expect(before).toEqual(copy);
  });
});
