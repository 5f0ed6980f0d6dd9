import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { betaMixtureInterval } from '../../../src/stats/confidenceSequence.js';
import { cumulativeOf, drawIndex, seededRandom } from '../../../src/stats/random.js';
import { RobustMonitor } from '../../../src/stats/robustMonitor.js';
import { robustFaceIntervals, robustInsideMargin } from '../../../src/stats/robustIntervals.js';
import { SequentialMonitor } from '../../../src/stats/sequential.js';
import { describeVerdict } from '../../../src/stats/verdict.js';
import { monitorSentence } from '../../../src/stats/dieVerdict.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const RED_LABELS = ['hit', 'crit', 'focus', 'blank'];
const D6 = [1, 1, 1, 1, 1, 1].map(() => 1 / 6);

/** Feeds `counts` one face at a time, interleaved, so the monitor sees a mixed sequence. */
function feed(monitor: RobustMonitor, counts: readonly number[]): void {
  const left = [...counts];
  while (left.some((c) => c > 0)) {
    left.forEach((c, i) => {
      if (c > 0) {
        monitor.observe(i);
        left[i] = c - 1;
      }
    });
  }
}

describe('RobustMonitor without unresolved rolls or misreads', () => {
  it('decides exactly as SequentialMonitor does, roll by roll (same e-value, verdict and roll)', () => {
    const random = seededRandom(31);
    const truth = cumulativeOf([0.45, 0.1, 0.22, 0.23]);
    for (let d = 0; d < 5; d++) {
      const plain = new SequentialMonitor(RED, { alpha: 0.01, maxRolls: 2000, labels: RED_LABELS });
      const robust = new RobustMonitor(RED, { alpha: 0.01, maxRolls: 2000, labels: RED_LABELS });
      while (!plain.decided) {
        const f = drawIndex(truth, random);
        plain.observe(f);
        robust.observe(f);
        if (plain.rolls % 25 === 0) expect(robust.state().logE).toBeCloseTo(plain.state().logE, 9);
      }
      expect(robust.decided).toBe(true);
      expect(robust.verdict().kind).toBe(plain.verdict().kind);
      expect(robust.state().decidedAt).toBe(plain.state().decidedAt);
    }
  });
});

describe('RobustMonitor: unresolved rolls', () => {
  it('keeps each unresolved roll in its place in the sequence and counts it in the rolls', () => {
    const m = new RobustMonitor(D6);
    expect(m.observe(0)).toBe(0);
    expect(m.observeUnresolved()).toBe(1);
    expect(m.observe(2)).toBe(2);
    const s = m.state();
    expect([s.n, s.resolved, s.unresolved, s.reviewed]).toEqual([3, 2, 1, 0]);
  });

  it('does not call a die UNFAIR that one assignment of its unresolved rolls makes fair: a d6 short of 6s with the 6s unresolved', () => {
    // Resolved counts alone: UNFAIR at alpha 0.01. SciPy (logbf of test/unit/stats/sequential.test.ts):
    //   logbf([100,100,100,100,100,40], [1/6]*6, 100) = 11.85804885825496
    const m = new RobustMonitor(D6, { alpha: 0.01 });
    feed(m, [100, 100, 100, 100, 100, 40]);
    expect(m.verdict().kind).toBe('UNFAIR');
    expect(m.state().logE).toBeCloseTo(11.85804885825496, 8);
    // ...but the same counts with 60 unresolved rolls interleaved before the deviation shows: all 6s would make it perfectly fair.
    const robust = new RobustMonitor(D6, { alpha: 0.01 });
    for (let i = 0; i < 60; i++) robust.observeUnresolved();
    feed(robust, [100, 100, 100, 100, 100, 40]);
    const s = robust.state();
    expect(s.decision.kind).toBe('INCONCLUSIVE');
    expect(s.logE).toBeLessThan(0);
    expect(s.mostFavourableLogE).toBeGreaterThan(Math.log(100));
    expect(s.reason).toBe('unresolved reads');
    expect(s.readsToReview).toBeGreaterThan(0);
    expect(s.readsToReview).toBeLessThanOrEqual(60);
    expect(describeVerdict(s.decision)).toContain('60 unresolved reads could change the verdict: review at least');
  });

  it('stops asking for reviews of rolls nobody could tell, and leaves the evidence as it was', () => {
    // As above: 300 of 3,300 unresolved; 284 reviews would certify the die.
    const m = new RobustMonitor(D6, { alpha: 0.01, delta: 0.03 });
    const positions = m.observeCounts([500, 500, 500, 500, 500, 500], 300);
    const before = m.state();
    // 100 of them a person could not tell: 200 are left to review, short of the 284 that would decide the die, but the
    // untellable share alone (100 of 3,300: 0.03) still leaves the margin within reach, so reviewing all 200 is the advice.
    for (const p of positions.slice(0, 100)) m.cannotTell(p);
    const some = m.state();
    expect(some.logE).toBe(before.logE);
    expect(some.unresolved).toBe(300);
    expect(some.decision.kind).toBe('INCONCLUSIVE');
    expect(describeVerdict(some.decision)).toContain('200 unresolved reads not yet reviewed could change the verdict: review at least');
    expect(describeVerdict(some.decision)).toContain('(100 nobody could tell stay unresolved)');
    expect(some.readsToReview).toBeLessThanOrEqual(200);
    // All of them untellable: no review can decide the die, and the advice says no more of reviewing.
    for (const p of positions.slice(100)) m.cannotTell(p);
    const none = m.state();
    expect(none.logE).toBe(before.logE);
    expect(none.readsToReview).toBeNull();
    expect(none.reason).toBe('collecting');
    expect(describeVerdict(none.decision)).toContain('300 unresolved reads counted as the least favourable faces (300 nobody could tell)');
    expect(describeVerdict(none.decision)).not.toContain('review');
    // An untellable roll takes no label, and is said untellable once.
    expect(m.isOpen(positions[0]!)).toBe(false);
    expect(() => m.review(positions[0]!, 0)).toThrow(InputError);
    expect(() => m.cannotTell(positions[0]!)).toThrow(/not an unresolved roll still open to review/);
  });

  it('speaks of one unresolved roll in the singular', () => {
    const one = new RobustMonitor(D6, { alpha: 0.01 });
    one.observeUnresolved();
    feed(one, [20, 20, 20, 20, 20, 20]);
    expect(describeVerdict(one.state().decision)).toContain('undecided after 121 rolls; 1 unresolved read counted as the least favourable face');
    const loaded = new RobustMonitor(D6, { alpha: 0.01 });
    loaded.observeUnresolved();
    feed(loaded, [100, 100, 100, 100, 100, 300]);
    expect(loaded.verdict().kind).toBe('UNFAIR');
    expect(monitorSentence(loaded)).toMatch(/^UNFAIR: .*; it holds whatever the unresolved roll was\.$/);
  });

  it('says to review the unresolved rolls when their share alone puts any verdict out of reach', () => {
    // 300 of 3,300 rolls unresolved: each face could be up to 0.09 higher, wider than the ±0.03 margin, and the
    // read rolls are exactly fair, so neither verdict can come from more rolls in the same shares.
    const m = new RobustMonitor(D6, { alpha: 0.01, delta: 0.03 });
    m.observeCounts([500, 500, 500, 500, 500, 500], 300);
    const s = m.state();
    expect(s.decision.kind).toBe('INCONCLUSIVE');
    if (s.decision.kind === 'INCONCLUSIVE') expect(s.decision.rollsNeeded).toBeNull();
    expect(s.reason).toBe('unresolved reads');
    // Reviewing 284 of them (if they split like the read ones) would already certify the die at 3,300 rolls.
    expect(s.readsToReview).toBe(284);
    // Early on no review decides the die yet, but the share still rules every verdict out: review them all.
    const early = new RobustMonitor(D6, { alpha: 0.01, delta: 0.03 });
    early.observeCounts([50, 50, 50, 50, 50, 50], 30);
    expect(early.state().reason).toBe('unresolved reads');
    expect(early.state().readsToReview).toBe(30);
    // Without them, the same read rolls certify the die.
    const alone = new RobustMonitor(D6, { alpha: 0.01, delta: 0.03 });
    alone.observeCounts([500, 500, 500, 500, 500, 500]);
    expect(alone.state().reason).toBe('within margin');
  });

  it("says the reader likely cannot read a face never read in so many rolls, while about that face's share ended unresolved (a logo the pip counter cannot count)", () => {
    const faces = ['1', '2', '3', '4', '5', '6'];
    const logo = new RobustMonitor(D6, { alpha: 0.01, maxRolls: 600, labels: faces });
    logo.observeCounts([100, 100, 100, 100, 100, 0], 100);
    const sentence = describeVerdict(logo.state().decision);
    expect(logo.state().decision.kind).toBe('INCONCLUSIVE');
    // A fair die shows no 6 in 500 rolls with probability (5/6)^500, about 1e-40.
    expect(sentence).toContain("no 6 was read in 500 rolls (a fair die would have shown 6 about 100 times), while 100 ended unresolved: the reader likely cannot read this die's 6, so every one is left unresolved");
    // Its 0 is not a deviation of the die: a projection names another face, or none.
    expect(sentence).not.toMatch(/if 6 stays at 0/);
    const uneven = new RobustMonitor(D6, { alpha: 0.01, maxRolls: 6000, labels: faces });
    uneven.observeCounts([90, 100, 100, 100, 110, 0], 100);
    const unevenVerdict = uneven.state().decision;
    expect(unevenVerdict.kind).toBe('INCONCLUSIVE');
    // The 1 or the 5 (90 and 110 of 600 rolls: 0.15 and 0.183 of them, not of the 500 read).
    const lead = unevenVerdict.kind === 'INCONCLUSIVE' ? unevenVerdict.leadingDeviation : undefined;
    expect([lead?.label, lead?.observed]).toSatisfy(([label, observed]) => (label === '1' && observed === 0.15) || (label === '5' && observed === 110 / 600));
    // Too few rolls to tell: (5/6)^50 is about 1e-4, short of the million to one it takes.
    const early = new RobustMonitor(D6, { alpha: 0.01, labels: faces });
    early.observeCounts([10, 10, 10, 10, 10, 0], 10);
    expect(describeVerdict(early.state().decision)).not.toContain('cannot read');
    // Fewer unresolved rolls than half a 6's share: the 6s are not what the reader declined.
    const few = new RobustMonitor(D6, { alpha: 0.01, maxRolls: 520, labels: faces });
    few.observeCounts([100, 100, 100, 100, 100, 0], 20);
    expect(describeVerdict(few.state().decision)).not.toContain('cannot read');
  });

  it("names a D3's face by what it reads in the unreadable-face sentence and in an undecided die's projection", () => {
    const names = ['1', '2', '3', '4', '5', '6'].map((f) => `face ${f} (reads ${Math.ceil(Number(f) / 2)})`);
    const logo = new RobustMonitor(D6, { alpha: 0.01, maxRolls: 600, labels: ['1', '2', '3', '4', '5', '6'], names });
    logo.observeCounts([100, 100, 100, 100, 100, 0], 100);
    expect(logo.unreadableFace()?.sentence).toMatch(/^no face 6 \(reads 3\) was read in 500 rolls \(a fair die would have shown face 6 \(reads 3\) about 100 times\)/);
    expect(logo.unreadableFace()?.label).toBe('6');
    expect(() => new RobustMonitor(D6, { labels: ['1', '2', '3', '4', '5', '6'], names: ['a'] })).toThrow(/1 names for 6 faces/);
  });

  it('still says the reader cannot read a face once a person has labelled some of its unresolved rolls as that face', () => {
    const faces = ['1', '2', '3', '4', '5', '6'];
    const logo = new RobustMonitor(D6, { alpha: 0.01, maxRolls: 6000, labels: faces });
    const positions = logo.observeCounts([100, 100, 100, 100, 100, 0], 100);
    for (const at of positions.slice(0, 60)) logo.review(at, 5);
    // The die plainly has 6s (60 labelled), but the reader has read none of them: the hint stays, counting the reviewed too.
    expect(logo.unreadableFace()?.sentence).toBe("no 6 was read in 500 rolls (a fair die would have shown 6 about 100 times), while 100 were declined, 60 of them labelled by a person since: the reader likely cannot read this die's 6");
    expect(describeVerdict(logo.state().decision)).toContain('labelled by a person since: the reader likely cannot read this die\'s 6, so the ones not labelled are left unresolved');
    for (const at of positions.slice(60)) logo.review(at, 5);
    // Every one labelled: none is left unresolved, and the verdict says so.
    expect(logo.unreadableFace()?.sentence).toBe("no 6 was read in 500 rolls (a fair die would have shown 6 about 100 times), while 100 were declined, all labelled by a person since: the reader likely cannot read this die's 6");
    expect(describeVerdict(logo.state().decision)).not.toContain('left unresolved');
    // A face the reader did read once is not one it cannot read.
    logo.observe(5);
    expect(logo.unreadableFace()).toBeUndefined();
  });

  it('turns UNFAIR once review shows the unresolved rolls were not 6s, and then only', () => {
    const m = new RobustMonitor(D6, { alpha: 0.01 });
    const positions = Array.from({ length: 60 }, () => m.observeUnresolved());
    feed(m, [100, 100, 100, 100, 100, 40]);
    positions.slice(0, 30).forEach((p, i) => m.review(p, i % 5));
    expect(m.verdict().kind).toBe('INCONCLUSIVE'); // 30 still open could be 6s
    positions.slice(30).forEach((p, i) => m.review(p, i % 5));
    const s = m.state();
    expect(s.decision.kind).toBe('UNFAIR');
    expect([s.resolved, s.reviewed, s.unresolved]).toEqual([540, 60, 0]);
    expect(s.decidedAt).toBe(600);
  });

  it('refuses to review a roll twice, a read roll, a roll outside the sequence or a face the die does not have', () => {
    const m = new RobustMonitor(D6);
    m.observe(1);
    const p = m.observeUnresolved();
    expect(() => m.review(p, 6)).toThrow(InputError);
    m.review(p, 5);
    expect(() => m.review(p, 5)).toThrow(/already reviewed/);
    expect(() => m.review(0, 2)).toThrow(/not an unresolved roll/);
    expect(() => m.review(7, 2)).toThrow(/not in the sequence/);
  });

  it('reports the anytime-valid p as 1 / the running maximum of the least favourable e-value, never rising', () => {
    const random = seededRandom(8);
    const truth = cumulativeOf([0.12, 0.16, 0.16, 0.16, 0.16, 0.24]);
    const m = new RobustMonitor(D6, { alpha: 1e-12 });
    let last = 1;
    let maxLogE = 0;
    for (let i = 0; i < 800; i++) {
      if (random() < 0.1) m.observeUnresolved();
      else m.observe(drawIndex(truth, random));
      const s = m.state();
      maxLogE = Math.max(maxLogE, s.logE);
      expect(s.maxLogE).toBeCloseTo(maxLogE, 12);
      expect(s.anytimeP).toBeCloseTo(Math.exp(-maxLogE), 12);
      expect(s.anytimeP).toBeLessThanOrEqual(last);
      last = s.anytimeP;
    }
  });

  it('lets a review after the budget turn a budget-INCONCLUSIVE into a verdict', () => {
    const m = new RobustMonitor(RED, { alpha: 0.05, maxRolls: 400, labels: RED_LABELS });
    const open: number[] = [];
    const random = seededRandom(3);
    const truth = cumulativeOf([0.6, 0.1, 0.15, 0.15]);
    while (!m.decided) {
      if (m.rolls % 2 === 0) open.push(m.observeUnresolved());
      else m.observe(drawIndex(truth, random));
    }
    expect(m.state().reason).toBe('unresolved reads');
    open.forEach((p) => m.review(p, drawIndex(truth, random)));
    expect(m.verdict().kind).toBe('UNFAIR');
  });

  it('adds a batch as the same rolls one by one would, unresolved ones placed last', () => {
    const batch = new RobustMonitor(RED, { alpha: 1e-9 });
    const positions = batch.observeCounts([40, 10, 25, 25], 7);
    expect(positions).toEqual([100, 101, 102, 103, 104, 105, 106]);
    const single = new RobustMonitor(RED, { alpha: 1e-9 });
    feed(single, [40, 10, 25, 25]);
    for (let i = 0; i < 7; i++) single.observeUnresolved();
    expect(batch.state().logE).toBeCloseTo(single.state().logE, 12);
    expect(batch.state().confidenceSequence).toEqual(single.state().confidenceSequence);
  });
});

describe('RobustMonitor: misreads', () => {
  it('does not call UNFAIR a deviation the misread rates could explain, and does once they could not', () => {
    // 4 % of crits read as hits would give read odds [0.38, 0.12, 0.25, 0.25]; 200,000 rolls at exactly those:
    // SciPy logbf([76000,24000,50000,50000], red, 100) = 14.35, far past log 20.
    const counts = [76000, 24000, 50000, 50000];
    const plain = new RobustMonitor(RED, { alpha: 0.05 });
    plain.observeCounts(counts);
    expect(plain.verdict().kind).toBe('UNFAIR');
    const allowing = new RobustMonitor(RED, { alpha: 0.05, misreadRates: [0.01, 0.06, 0.01, 0.01] });
    allowing.observeCounts(counts);
    expect(allowing.verdict().kind).not.toBe('UNFAIR');
    // Rates that never let a crit be read as something else cannot explain crits at 0.12.
    const tooSmall = new RobustMonitor(RED, { alpha: 0.05, misreadRates: [0.01, 0, 0.01, 0.01] });
    tooSmall.observeCounts(counts);
    expect(tooSmall.verdict().kind).toBe('UNFAIR');
  });

  it('refuses misread rates that are not one per face in [0, 0.5)', () => {
    expect(() => new RobustMonitor(RED, { misreadRates: [0.01] })).toThrow(InputError);
    expect(() => new RobustMonitor(RED, { misreadRates: [0.01, 0.6, 0, 0] })).toThrow(/below 0.5/);
  });
});

describe('robust face intervals', () => {
  it('contain the beta-mixture interval of every count the unresolved rolls allow', () => {
    const counts = [40, 10, 25, 25];
    const unresolved = 12;
    const alpha = 0.05;
    const intervals = robustFaceIntervals({ counts, unresolved }, RED, { alpha });
    RED.forEach((p, i) => {
      for (let s = counts[i]!; s <= counts[i]! + unresolved; s++) {
        const one = betaMixtureInterval(s, 112, 1000 * p, 1000 * (1 - p), alpha / 4);
        expect(intervals[i]!.lower).toBeLessThanOrEqual(one.lower + 1e-12);
        expect(intervals[i]!.upper).toBeGreaterThanOrEqual(one.upper - 1e-12);
      }
    });
  });

  it('certify a margin only when every widened interval is inside it', () => {
    const counts = [3750, 1250, 2500, 2500];
    expect(robustInsideMargin({ counts, unresolved: 0 }, RED, { alpha: 0.05 }, 0.03)).toBe(true);
    // 800 unresolved rolls could all be crits: crit up to 0.19, outside 0.125 ± 0.03.
    expect(robustInsideMargin({ counts, unresolved: 800 }, RED, { alpha: 0.05 }, 0.03)).toBe(false);
    const wide = robustFaceIntervals({ counts, unresolved: 800 }, RED, { alpha: 0.05 });
    expect(wide[1]!.upper).toBeGreaterThan(0.155);
    // Misread rates widen them too: a crit could be read as a hit 6 % of the time.
    const misread = robustFaceIntervals({ counts, unresolved: 0 }, RED, { alpha: 0.05, misreadRates: [0, 0.06, 0, 0] });
    const exact = robustFaceIntervals({ counts, unresolved: 0 }, RED, { alpha: 0.05 });
    expect(misread[1]!.upper).toBeCloseTo(exact[1]!.upper / 0.94, 12);
    // ...and a hit could be a misread crit: at most 6 % of the crits' largest possible share flows in.
    expect(misread[0]!.lower).toBeCloseTo(exact[0]!.lower - 0.06 * misread[1]!.upper, 12);
  });
});

describe('RobustMonitor corrections', () => {
  it('moves a reviewed roll to its corrected face: the counts, the e-value now and the verdict are those of a monitor given the right face; the running maximum keeps what the wrong face gave', () => {
    const wrong = new RobustMonitor(D6, { alpha: 0.01 });
    const right = new RobustMonitor(D6, { alpha: 0.01 });
    for (const m of [wrong, right]) feed(m, [30, 30, 30, 30, 30, 30]);
    const at = wrong.observeUnresolved();
    right.observeUnresolved();
    // A wrong 6 given to the roll, then many rolls, then the correction to 1.
    wrong.review(at, 5);
    right.review(at, 0);
    for (const m of [wrong, right]) feed(m, [5, 5, 5, 5, 5, 5]);
    wrong.correct(at, 0);
    const [w, r] = [wrong.state(), right.state()];
    expect(w.counts).toEqual(r.counts);
    expect([w.reviewed, w.unresolved, w.cannotTell]).toEqual([1, 0, 0]);
    expect(w.logE).toBeCloseTo(r.logE, 12);
    expect(w.decision.kind).toBe(r.decision.kind);
    expect(w.maxLogE).toBeGreaterThanOrEqual(r.maxLogE - 1e-12);
  });

  it('corrects a face to "cannot tell" (the roll unresolved again, for good) and back, and refuses a roll nobody answered', () => {
    const m = new RobustMonitor(D6, { alpha: 0.01 });
    feed(m, [10, 10, 10, 10, 10, 10]);
    const at = m.observeUnresolved();
    const open = m.state();
    expect(() => m.correct(at, 2)).toThrow(/has no answer to correct/);
    m.review(at, 2);
    m.correct(at, null);
    const none = m.state();
    expect([none.reviewed, none.unresolved, none.cannotTell]).toEqual([0, 1, 1]);
    expect(none.counts).toEqual(open.counts);
    expect(none.logE).toBeCloseTo(open.logE, 12);
    expect(m.isOpen(at)).toBe(false);
    m.correct(at, 4);
    expect([m.state().reviewed, m.state().unresolved, m.state().cannotTell]).toEqual([1, 0, 0]);
    expect(m.state().counts[4]).toBe(11);
  });
});
