/**
 * The evidence trace of a die as its session saw it: the stored roll events
 * (read rolls, unresolved rolls in their places, reviews when they were given)
 * replayed through the same monitor the session built (`sessionMonitor` under
 * the stored error control, with the stored misread bounds), so the chart
 * shows the least favourable e-value the verdict rests on, against the
 * session's threshold K/α, and ends at the stored e-value.
 */
import { replay, sessionMonitor, type DieVerdict, type RollEvent } from '../stats/dieVerdict.js';
import type { EvidenceTrace } from './evidenceTrace.js';

/** One stored event of a die's roll sequence, in the order the session met them (the store's `rollEvents`). */
export type StoredDieEvent =
  | { readonly kind: 'roll'; readonly rollId: number; readonly faceId: string | null; readonly symbol: string | null }
  | { readonly kind: 'unresolved'; readonly rollId: number }
  | { readonly kind: 'review'; readonly rollId: number; readonly faceId: string | null; readonly symbol: string }
  | { readonly kind: 'cannot-tell'; readonly rollId: number }
  /** A corrected answer: the right face, or (`faceId` null, `symbol` '') none a person can tell. */
  | { readonly kind: 'correction'; readonly rollId: number; readonly faceId: string | null; readonly symbol: string };

/** The session's trace of one die; null when its events do not fit the stored verdict's faces (then the analysis's trace is shown). */
export function sessionEvidenceTrace(events: readonly StoredDieEvent[], stored: DieVerdict, maxPoints = 400): EvidenceTrace | null {
  const labels = stored.faces.map((f) => f.label);
  const expected = stored.faces.map((f) => f.expected);
  const categoryOf = (e: { faceId: string | null; symbol: string | null }): number => {
    const byFace = e.faceId === null ? -1 : labels.indexOf(e.faceId);
    return byFace >= 0 ? byFace : e.symbol === null ? -1 : labels.indexOf(e.symbol);
  };
  const calls: RollEvent[] = [];
  const positions = new Map<number, number>();
  let n = 0;
  for (const e of events) {
    if (e.kind === 'unresolved') {
      positions.set(e.rollId, n++);
      calls.push({ kind: 'unresolved' });
      continue;
    }
    // No face given: the roll stays unresolved, the evidence as it was.
    if (e.kind === 'cannot-tell') {
      const position = positions.get(e.rollId);
      if (position === undefined) return null;
      calls.push({ kind: 'cannot-tell', position });
      continue;
    }
    if (e.kind === 'correction') {
      const position = positions.get(e.rollId);
      const face = e.faceId === null && e.symbol === '' ? null : categoryOf(e);
      if (position === undefined || face === -1) return null;
      calls.push({ kind: 'correct', position, face });
      continue;
    }
    const face = categoryOf(e);
    if (face < 0) return null;
    if (e.kind === 'roll') {
      calls.push({ kind: 'roll', face });
      n++;
    } else {
      const position = positions.get(e.rollId);
      if (position === undefined) return null;
      calls.push({ kind: 'review', position, face });
    }
  }
  const monitor = sessionMonitor(stored.errorControl, expected, {
    delta: stored.delta,
    labels,
    ...(stored.misreadRates !== null ? { misreadRates: stored.misreadRates } : {}),
  });
  const step = Math.max(1, Math.ceil(calls.length / maxPoints));
  const rolls: number[] = [0];
  const logE: number[] = [0];
  let wasDecided = false;
  calls.forEach((call, i) => {
    replay(monitor, [call]);
    const decidedNow = !wasDecided && monitor.decided;
    wasDecided ||= decidedNow;
    if ((i + 1) % step === 0 || i === calls.length - 1 || decidedNow) {
      rolls.push(monitor.rolls);
      logE.push(monitor.logE);
    }
  });
  const finalLogE = monitor.logE;
  const kind = stored.kind === 'RIG_SUSPECT' ? monitor.verdict().kind : stored.kind;
  return {
    rolls,
    logE,
    thresholdLogE: stored.logThreshold,
    monitorAlpha: stored.alphaPerDie,
    decision: kind,
    decidedAt: stored.decidedAt,
    finalLogE,
    source: 'session',
  };
}
