/**
 * A session says before rolling when its calibration's misread bounds are too wide for its margin: no die of that type
 * could be certified FAIR_WITHIN, however long it rolls (`stats/misreadReach.ts`); the report says it again beside the
 * bounds. The figures of the first case are those of a profile calibrated on 150 foreign-2 renders (27, 7, 20 and 18
 * held-back red dice, none read wrong): test/unit/stats/misreadReach.test.ts derives them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDieType } from '../../src/dice/catalogue.js';
import { symbolProbabilities } from '../../src/dice/indexing.js';
import { measuredMisreads, misreadRatesOf, noMisreadMeasure } from '../../src/stats/misreadRate.js';
import { certifiableMarginLimit } from '../../src/stats/misreadReach.js';
import { misreadReachNotice } from '../../src/session/misreadReachNotice.js';
import { stripTags } from '../report/support/html.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from '../cli/runCli.js';

const red = getDieType('red');
const RED = symbolProbabilities(red);
const SOURCE = 'calibration profile "foreign" (0123456789ab, validation dice)';
const reads = (counts: readonly number[]) => counts.map((read) => ({ read, misread: 0 }));

describe('the notice of misread bounds too wide for the session’s margin', () => {
  it('names the widest bound, how close a fair die could get, and the validation reads that would reach the margin', () => {
    const notice = misreadReachNotice(red, 'symbols', RED, measuredMisreads(SOURCE, red.symbols, reads([27, 7, 20, 18])), 0.05, 'check the profile');
    expect(notice).toBe(
      `X-Wing red attack die (d8): the misread bounds its verdicts allow for (${SOURCE}; crit up to 34.8 %, 0 wrong in 7 reads) ` +
        'let no die of this type be certified within ±5 %, however long it rolls: even a fair die read without a misread gets no closer than ±32.4 %. ' +
        'It can still be found unfair where its deviation is larger than misreads could explain. ' +
        'To certify within ±5 %, every symbol needs about 113 reads with none wrong (crit has 7): check the profile; or set a wider stopping.delta.',
    );
  });

  it('with cocked dice read as faces measured, asks for reads enough to bound both, and says so', () => {
    const withCocked = (n: number, dice: number) => measuredMisreads(SOURCE, red.symbols, reads([n, n, n, n]), 0.95, { dice, cocked: 8, readAsFace: 0 });
    const notice = misreadReachNotice(red, 'symbols', RED, measuredMisreads(SOURCE, red.symbols, reads([27, 7, 20, 18]), 0.95, { dice: 150, cocked: 8, readAsFace: 0 }), 0.05, 'check the profile');
    expect(notice).toContain('(crit has 7) and no cocked die read as a face (0 of 150 dice were, bounding such reads at 1.98 %): check the profile');
    const asked = Number(/every symbol needs about (\d+) reads/.exec(notice ?? '')?.[1]);
    // More than without the cocked dice (113), and enough: every symbol read that often, none wrong, and no cocked die
    // read as a face even among as few held-back dice, leaves half the margin to the rolls, as the count without them does.
    const limit = (n: number) => certifiableMarginLimit(RED, misreadRatesOf(withCocked(n, n)) ?? []);
    expect(asked).toBeGreaterThan(113);
    expect(limit(asked)).toBeLessThanOrEqual(0.025);
    expect(limit(113)).toBeGreaterThan(0.025);
  });

  it('is not given when the bounds let a fair die reach the margin, nor when nothing measured misreads', () => {
    expect(misreadReachNotice(red, 'symbols', RED, measuredMisreads(SOURCE, red.symbols, reads([27, 7, 20, 18])), 0.4, 'x')).toBeUndefined();
    expect(misreadReachNotice(red, 'symbols', RED, measuredMisreads(SOURCE, red.symbols, reads([2000, 2000, 2000, 2000])), 0.05, 'x')).toBeUndefined();
    expect(misreadReachNotice(red, 'symbols', RED, noMisreadMeasure(), 0.05, 'x')).toBeUndefined();
  });

  it('is printed before the demo rolls and said again beside the bounds in its report', async () => {
    const dir = tempDir('dicerig-misread-reach-');
    const db = join(dir, 'demo.db');
    const demo = await runCli('demo', '--seed', '3', '--budget', '60', '--misreads', '6>5=0.02', '--misread-calibration', '30', '--db', db);
    expect(demo.code, demo.err).toBe(0);
    const said = `${demo.out}${demo.err}`;
    expect(said).toMatch(/D6 \(pips\): the misread bounds its verdicts allow for \(.*30 held-back reads per face.*\) let no die of this type be certified within ±5 %, however long it rolls: even a fair die read without a misread gets no closer than ±15\.1 %\. .* every face needs about 114 reads with none wrong \(1 has 30\): give the simulated calibration more reads \(camera\.misreadCalibration\)/);
    expect(said.indexOf('misread bounds its verdicts')).toBeLessThan(said.indexOf('Starting session'));
    const report = await runCli('report', '1', '--db', db, '--out', join(dir, 'report'));
    expect(report.code, report.err).toBe(0);
    const html = readFileSync(join(dir, 'report', 'report.html'), 'utf8');
    expect(html.match(/data-misread-reach="/g)?.length).toBe(4);
    expect(stripTags(html)).toContain('These misread bounds let no die be certified within ±0.05, however long it rolls: even a fair die read without a misread gets no closer than ±0.151.');
  }, 60_000);
});
