import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { replay, sessionErrorControl, sessionMonitor, sessionVerdicts, type RollEvent } from '../../../src/stats/dieVerdict.js';
import { RobustMonitor } from '../../../src/stats/robustMonitor.js';
import type { RigSuspectVerdict } from '../../../src/stats/verdict.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const RED_LABELS = ['hit', 'crit', 'focus', 'blank'];

function events(counts: readonly number[], unresolvedEvery = 0): RollEvent[] {
  const out: RollEvent[] = [];
  const left = [...counts];
  while (left.some((c) => c > 0)) {
    left.forEach((c, i) => {
      if (c > 0) {
        out.push({ kind: 'roll', face: i });
        left[i] = c - 1;
        if (unresolvedEvery > 0 && out.length % unresolvedEvery === 0) out.push({ kind: 'unresolved' });
      }
    });
  }
  return out;
}

describe('sessionErrorControl', () => {
  it('divides the session alpha across its dice and states the e-value threshold once (the demo: 4 dice at 0.001 -> 4,000)', () => {
    const c = sessionErrorControl(0.001, 4);
    expect(c.alphaPerDie).toBe(0.00025);
    expect(c.threshold).toBe(4000);
    expect(c.logThreshold).toBeCloseTo(Math.log(4000), 12);
    expect(c.statement).toBe(
      'α = 0.001 for the whole session: each of its 4 dice is decided at α/4 = 0.00025 (Bonferroni), UNFAIR once its e-value reaches 4e3; ' +
        'the chance that any die of the session gets a wrong UNFAIR or FAIR_WITHIN is at most 0.001.',
    );
  });

  it('refuses an alpha outside (0, 1) or a session without dice', () => {
    expect(() => sessionErrorControl(0, 4)).toThrow(RangeError);
    expect(() => sessionErrorControl(0.01, 0)).toThrow(RangeError);
  });
});

describe('sessionVerdicts', () => {
  it('gives every die the threshold actually used, its anytime-valid p, its roll counts and descriptive fixed-n p-values', () => {
    const control = sessionErrorControl(0.01, 2);
    const loaded = replay(sessionMonitor(control, RED, { labels: RED_LABELS }), events([120, 10, 20, 15], 10));
    const fair = replay(sessionMonitor(control, RED, { labels: RED_LABELS }), events([38, 12, 25, 25]));
    const { errorControl, dice } = sessionVerdicts(control, [
      { label: 'red-1', monitor: loaded, labels: RED_LABELS },
      { label: 'red-2', monitor: fair, labels: RED_LABELS },
    ]);
    expect(errorControl).toBe(control);
    const [a, b] = dice;
    expect(a!.kind).toBe('UNFAIR');
    expect(a!.reason).toBe('evidence');
    expect(a!.threshold).toBe(200);
    expect(a!.alphaPerDie).toBe(0.005);
    expect(a!.logE).toBeGreaterThanOrEqual(Math.log(200));
    expect(a!.anytimeP).toBeCloseTo(Math.exp(-a!.maxLogE), 15);
    expect(a!.adjustedAnytimeP).toBeCloseTo(Math.min(1, 2 * a!.anytimeP), 15);
    expect(a!.rollsStillNeeded).toBe(0);
    expect(a!.unresolved).toBeGreaterThan(0);
    expect(a!.resolved + a!.reviewed + a!.unresolved).toBe(a!.rolls);
    expect(a!.descriptive?.label).toBe('descriptive');
    expect(a!.descriptive?.note).toContain('not a valid test');
    expect(a!.sentence).toMatch(/^UNFAIR: hit comes up .* it holds whatever the \d+ unresolved rolls were\.$/);
    expect(a!.faces.map((f) => f.label)).toEqual(RED_LABELS);
    expect(b!.kind).toBe('INCONCLUSIVE');
    expect(b!.reason).toBe('collecting');
    expect(b!.rollsStillNeeded).toBeGreaterThan(0);
    expect(b!.threshold).toBe(200);
    // JSON-safe: a store can keep it and every consumer shows the same record.
    expect(JSON.parse(JSON.stringify(dice))).toEqual(dice);
  });

  it('uses the exact multinomial test for the descriptive p when expected counts are small', () => {
    const control = sessionErrorControl(0.05, 1);
    const m = replay(sessionMonitor(control, RED), events([5, 0, 2, 1]));
    const [v] = sessionVerdicts(control, [{ label: 'R', monitor: m }]).dice;
    // Same SciPy enumeration as test/unit/analysis/analyze.test.ts: 0.5782279968261721
    expect(v!.descriptive?.headline.method).toBe('exact multinomial test');
    expect(v!.descriptive?.headline.p).toBeCloseTo(0.5782279968261721, 9);
  });

  it('withholds every verdict as RIG_SUSPECT when the rig checks failed', () => {
    const control = sessionErrorControl(0.01, 1);
    const m = replay(sessionMonitor(control, RED), events([120, 10, 20, 15]));
    const rig: RigSuspectVerdict = { kind: 'RIG_SUSPECT', n: 165, alpha: 0.01, failedChecks: [{ name: 'repeat', p: 1e-5, logP: Math.log(1e-5), adjustedP: 4e-5, detail: 'repeats' }] };
    const [v] = sessionVerdicts(control, [{ label: 'R', monitor: m }], { rigSuspect: rig }).dice;
    expect(v!.kind).toBe('RIG_SUSPECT');
    expect(v!.reason).toBe('rig checks failed');
    expect(v!.rollsStillNeeded).toBeNull();
  });

  it('refuses dice that do not match the error control: another count, or a monitor at another alpha', () => {
    const control = sessionErrorControl(0.01, 2);
    const right = sessionMonitor(control, RED);
    expect(() => sessionVerdicts(control, [{ label: 'a', monitor: right }])).toThrow(/for 2 dice but the session has 1/);
    const perDie = new RobustMonitor(RED, { alpha: 0.01 });
    expect(() => sessionVerdicts(control, [{ label: 'a', monitor: right }, { label: 'b', monitor: perDie }])).toThrow(InputError);
  });

  it('replays reviews in order, so a replayed monitor gives the session verdict', () => {
    const control = sessionErrorControl(0.01, 1);
    const log: RollEvent[] = [...events([60, 20, 40, 40], 5), { kind: 'review', position: 5, face: 0 }];
    const a = replay(sessionMonitor(control, RED), log);
    const b = replay(sessionMonitor(control, RED), log);
    expect(sessionVerdicts(control, [{ label: 'x', monitor: a }])).toEqual(sessionVerdicts(control, [{ label: 'x', monitor: b }]));
    expect(a.state().reviewed).toBe(1);
  });
});
