import type { LinkStats } from './driver.js';
import { median } from '../stats/median.js';

/** How many recent round trips a driver keeps for `linkStats()`. */
export const ROUND_TRIPS_KEPT = 512;

/** Counts what happened on a rig link; every driver keeps one and hands out snapshots. */
export class LinkStatsRecorder {
  private commands = 0;
  private retransmits = 0;
  private crcFailures = 0;
  private timeouts = 0;
  private reconnects = 0;
  private readonly roundTrips: number[] = [];

  /** A new command (not a retransmit) went out. */
  command(): void {
    this.commands++;
  }

  /** A command went out again with the same sequence number and bytes. */
  retransmit(): void {
    this.retransmits++;
  }

  /** A line failed its CRC or grammar, in either direction. */
  crcFailure(): void {
    this.crcFailures++;
  }

  /** One attempt of a command got no reply in time. */
  timeout(): void {
    this.timeouts++;
  }

  reconnect(): void {
    this.reconnects++;
  }

  /** A non-motion command got its reply `ms` after it was first sent. */
  roundTrip(ms: number): void {
    this.roundTrips.push(ms);
    // Trimmed in batches: once full, dropping the oldest every command moved 511 numbers each time.
    if (this.roundTrips.length >= 2 * ROUND_TRIPS_KEPT) this.roundTrips.splice(0, this.roundTrips.length - ROUND_TRIPS_KEPT);
  }

  snapshot(): LinkStats {
    return {
      commands: this.commands,
      retransmits: this.retransmits,
      crcFailures: this.crcFailures,
      timeouts: this.timeouts,
      reconnects: this.reconnects,
      roundTripsMs: this.roundTrips.slice(-ROUND_TRIPS_KEPT),
    };
  }
}

/** Median, 99th percentile and maximum of the round trips in `stats` (NaN when there are none). */
export function roundTripSummary(stats: LinkStats): { count: number; medianMs: number; p99Ms: number; maxMs: number } {
  const s = [...stats.roundTripsMs].sort((a, b) => a - b);
  if (s.length === 0) return { count: 0, medianMs: Number.NaN, p99Ms: Number.NaN, maxMs: Number.NaN };
  const p99 = s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)] as number;
  return { count: s.length, medianMs: median(s), p99Ms: p99, maxMs: s[s.length - 1] as number };
}
