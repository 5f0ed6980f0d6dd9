import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskingIo } from '../../src/cli/commands/calibrateGuided.js';
import { main } from '../../src/cli/main.js';
import type { CalibrationProfile } from '../../src/vision/calibration/profile.js';
import { shortHash } from '../../src/vision/calibration/profile.js';
import { profileCockedReads, profileMisreadCounts } from '../../src/vision/calibration/profileMisreads.js';
import { readProfileFile } from '../../src/vision-io/profileFile.js';
import { misreadMeasure } from '../../src/session/misreadMeasure.js';
import { getDieType } from '../../src/dice/catalogue.js';
import { symbolProbabilities } from '../../src/dice/indexing.js';
import { misreadRateBounds } from '../../src/stats/misreadRate.js';
import { certifiableMarginLimit } from '../../src/stats/misreadReach.js';
import { runCli } from './runCli.js';

const tmp = mkdtempSync(join(tmpdir(), 'dicerig-calibrate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const TRAIN = join(tmp, 'train');
const GOOD = join(tmp, 'good');
const SMALL = join(tmp, 'small');
const CREATED = '2025-03-01T10:00:00.000Z';

const readProfile = (file: string): CalibrationProfile => JSON.parse(readFileSync(file, 'utf8')) as CalibrationProfile;

const ringProfiles = new Map<string, Promise<{ code: number; out: string; err: string }>>();
/**
 * The ring profile of the training folder written to `file` (named after it) and what its command said, made once a
 * file: the same command gives the same profile (the "same hash" test), so tests that only read it or its output
 * share it.
 */
function ringProfileAt(file: string): Promise<{ code: number; out: string; err: string }> {
  let made = ringProfiles.get(file);
  if (made === undefined) {
    made = runCli('calibrate', '--die', 'red', '--reader', 'ring', '--from-labelled', TRAIN, '--out', file, '--created-at', CREATED);
    ringProfiles.set(file, made);
  }
  return made;
}
const trainProfile = async (): Promise<{ file: string; made: { code: number; out: string; err: string } }> => ({ file: join(tmp, 'red.json'), made: await ringProfileAt(join(tmp, 'red.json')) });

interface GroupListing {
  group: number;
  dice: number;
  simulatorTruth?: Record<string, number>;
}

/** What a person would call each group: what most of its dice show (the simulator knows). */
function majorityName(listing: GroupListing): string {
  return Object.entries(listing.simulatorTruth ?? {}).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'skip';
}

/**
 * A person at a terminal who answers each group's question by looking at the group in `groupsDir`'s listing (as at its
 * picture); with what was printed and asked.
 */
function personAt(groupsDir: string, answer: (group: GroupListing, question: string) => string): { io: AskingIo & { exitCode: number }; seen: { stdout: string; stderr: string; asked: string[] } } {
  const seen = { stdout: '', stderr: '', asked: [] as string[] };
  const io: AskingIo & { exitCode: number } = {
    exitCode: 0,
    out: (t) => void (seen.stdout += t),
    err: (t) => void (seen.stderr += t),
    setExitCode(c) {
      io.exitCode = c;
    },
    ask(question) {
      seen.asked.push(question);
      const id = Number(/^Group (\d+):/.exec(question)?.[1]);
      const listing = JSON.parse(readFileSync(join(groupsDir, 'groups.json'), 'utf8')) as GroupListing[];
      return Promise.resolve(answer(listing.find((g) => g.group === id) as GroupListing, question));
    },
  };
  return { io, seen };
}

beforeAll(async () => {
  const sim = (out: string, ...args: string[]) => runCli('vision', 'simulate', '--dice', 'red', '--out', out, ...args);
  // Training: four tuning presets; checks: the held-out preset, and dice far smaller than calibrated.
  expect((await sim(TRAIN, '--seed', '71000', '--frames', '16', '--frames-per-session', '4', '--lighting', 'studio,desk-lamp,dim,window')).code).toBe(0);
  expect((await sim(GOOD, '--seed', '72000', '--frames', '6', '--frames-per-session', '3', '--lighting', 'evening')).code).toBe(0);
  expect((await sim(SMALL, '--seed', '73000', '--frames', '3', '--lighting', 'studio', '--die-size', '48')).code).toBe(0);
});

describe('dicerig calibrate --from-labelled', () => {
  it('builds, validates and saves a profile from a labelled folder', async () => {
    const { file: out, made: r } = await trainProfile();
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const p = readProfile(out);
    expect(p.name).toBe('red');
    expect(p.createdAt).toBe(CREATED);
    expect(p.dice).toEqual(['red']);
    expect(r.out).toContain(`Calibration profile written to ${out} (classifier d8-rings/1+${p.hash.slice(7, 19)}).`);
    expect(r.out).toMatch(/^ {2}validated on: every 4th image in name order \(4 of 16 images, \d+ dice\)$/m);
    expect(r.out).toMatch(/^ {2}validation: \d+ dice, \d+ read, \d+ correct \(accuracy 100\.00 %\), .*0 confident errors, 0 cocked read as a face$/m);
    expect(r.out).toMatch(/^\s*truth\\read\s+red-hit\s+red-crit\s+red-focus\s+red-blank\s+declined\s+cocked$/m);
    // How close a session could certify a fair die with it: the limit its validation dice's misread bounds set.
    const red = getDieType('red');
    const limit = certifiableMarginLimit(symbolProbabilities(red), misreadRateBounds(profileMisreadCounts(p, 'red', red.symbols)));
    expect(r.out).toContain(`  verdicts with it: misreads bounded by its validation dice, so a session can certify a fair red die to ±${(100 * limit).toFixed(1)} % at best (newly labelled dice narrow them: dicerig calibrate --check PROFILE --camera DEVICE -o NEW.json: new throws on the rig, named a group at a time; or --images DIR instead of --camera, for rolls labelled already)\n`);
  });

  it('gives in JSON what its summary says of verdicts: per die, how close to fair a session could certify it, or why a session refuses it', async () => {
    const text = await runCli('calibrate', '--die', 'red', '--reader', 'ring', '--from-labelled', SMALL, '--out', join(tmp, 'reach.json'));
    const json = JSON.parse((await runCli('calibrate', '--die', 'red', '--reader', 'ring', '--from-labelled', SMALL, '--out', join(tmp, 'reach.json'), '--json')).out) as { verdictReach: { die: string; certifiableMargin?: number; refused?: string }[] };
    expect(json.verdictReach).toHaveLength(1);
    const [red] = json.verdictReach;
    if (red?.refused !== undefined) expect(text.out).toContain(`no red die at all (a session refuses it: ${red.refused})`);
    else expect(text.out).toContain(`a fair red die to ±${(100 * (red?.certifiableMargin as number)).toFixed(1)} % at best`);
  });

  it('makes the same profile again from the same folder (same hash)', async () => {
    const { file: a } = await trainProfile();
    const b = join(tmp, 'b.json');
    await runCli('calibrate', '--die', 'red', '--reader', 'ring', '--from-labelled', join(TRAIN, 'images'), '--labels', join(TRAIN, 'labels'), '--out', b, '--created-at', '2026-01-01T00:00:00Z', '--name', 'other');
    expect(readProfile(b).hash).toBe(readProfile(a).hash);
  });

  it('says when the folder has no dice of the kind asked for', async () => {
    const r = await runCli('calibrate', '--die', 'green', '--from-labelled', TRAIN, '--out', join(tmp, 'g.json'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no labelled green dice in .*classes\.txt lists red-hit, red-crit, red-focus, red-blank, cocked/);
  });

  it('calibrates the ring reader on a folder vision simulate wrote unless told otherwise, and says so', async () => {
    const out = join(tmp, 'sim-default.json');
    const r = await runCli('calibrate', '--die', 'red', '--from-labelled', TRAIN, '--out', out, '--created-at', CREATED);
    expect(r.code).toBe(0);
    expect(r.err).toBe(`${join(TRAIN, 'images')} holds the simulated camera's images (dicerig vision simulate), whose flat-drawn dice the learned networks read mostly as tilted: calibrating the ring reader, as calibrate --camera sim does (--reader learned for the learned one).\n`);
    expect(readProfile(out).classifier.kind).toBe('d8-ring-harmonics/nearest-mean');
    const tuning = await runCli('calibrate', '--die', 'red', '--from-labelled', TRAIN, '--no-fine-tune', '--out', join(tmp, 'never.json'));
    expect(tuning.code).toBe(1);
    expect(tuning.err).toMatch(/--fine-tune-passes and --no-fine-tune are for the learned reader, and .* holds the simulated camera's flat-drawn dice/);
  });

  it('states the flat dice declined apart from the truly cocked ones, which are re-rolled, not declined', async () => {
    const { made: r } = await trainProfile();
    expect(r.code).toBe(0);
    const line = /^ {2}validation: .*$/m.exec(r.out)?.[0] ?? '';
    const [, flat, cocked] = /flat dice declined 0\.0 % \(0 of (\d+): 0 unreadable, 0 called cocked\), (\d+) cocked dice \(re-rolled, not counted as declines\)/.exec(line) ?? [];
    // The folder has cocked dice (8 % of them): they were once counted as the profile's declines.
    expect(Number(cocked)).toBeGreaterThan(0);
    expect(Number(flat) + Number(cocked)).toBe(Number(/validation: (\d+) dice/.exec(line)?.[1]));
  });
});

describe('dicerig calibrate --check', () => {
  it('says the profile still holds on new rolls under other lighting', async () => {
    const profile = join(tmp, 'check.json');
    await ringProfileAt(profile);
    const r = await runCli('calibrate', '--check', profile, '--images', join(GOOD, 'images'), '--labels', join(GOOD, 'labels'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^flat dice: \d+, accuracy among read 100\.00 % \(held back at calibration: 100\.00 %\)/m);
    expect(r.out).toMatch(/^verdict: the profile still holds/m);
    const j = JSON.parse((await runCli('calibrate', '--check', profile, '--images', GOOD, '--json')).out) as { holds: boolean; reasons: string[] };
    expect(j).toMatchObject({ holds: true, reasons: [] });
  });

  it('says it does not hold when the dice no longer look as calibrated, and exits 1', async () => {
    const profile = join(tmp, 'check.json');
    const r = await runCli('calibrate', '--check', profile, '--images', SMALL);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^verdict: the profile does NOT hold: no die was read at all; 100\.00 % of flat dice were declined, over 5\.00 %\. Recalibrate/m);
  });

  it('meets no target that only reads can show when no die was read, names the die size as the cause, and writes no checked profile', async () => {
    const profile = join(tmp, 'check.json');
    const out = join(tmp, 'small-checked.json');
    const r = await runCli('calibrate', '--check', profile, '--images', SMALL, '-o', out);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/^ {2}met {5}(decline spread|confident errors)/m);
    expect(r.out).toMatch(/^ {2}NOT met decline spread between faces: not measured, no die was read \(target <= 2x\)$/m);
    expect(r.out).toMatch(/^ {2}NOT met confident errors \(>= [\d.]+\): not measured, no die was read \(target 0\)$/m);
    // Nothing read, no figure: the spread (and its chance line) and the error count say only that they were not measured.
    expect(r.out).toMatch(/^decline spread between faces: not measured, no die was read$/m);
    expect(r.out).not.toMatch(/spread over 2x on these dice|^decline spread between faces: [\d.]+x/m);
    expect(r.out).toMatch(/^confident errors \(wrong reads at confidence >= [\d.]+\): not measured, no die was read$/m);
    // The dice are 48 px across, the profile's 72: each decline says so, none is counted without a cause.
    expect(r.out).toMatch(/^declined by cause: face\s+die-size\s+no-cause$/m);
    for (const face of ['hit', 'crit', 'focus', 'blank']) expect(r.out).toMatch(new RegExp(`^\\s+red-${face}\\s+[1-9]\\d*\\s+0$`, 'm'));
    expect(r.out).toContain(`nothing written to ${out}: no die was read, so these dice bound no misread.`);
    expect(existsSync(out)).toBe(false);
  });

  it('says there is nothing to check, not to recalibrate, when no new roll is labelled with the profile classes', async () => {
    const profile = join(tmp, 'check.json');
    const renamed = join(tmp, 'renamed');
    cpSync(GOOD, renamed, { recursive: true });
    writeFileSync(join(renamed, 'labels', 'classes.txt'), 'hit\ncrit\nfocus\nblank\ncocked\n');
    const r = await runCli('calibrate', '--check', profile, '--images', renamed);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^\(boxes of classes the profile does not read were skipped: hit, crit, focus, blank\)$/m);
    expect(r.out).toMatch(/^verdict: nothing to check: no labelled flat die of the profile's classes \(red-hit, red-crit, red-focus, red-blank\) in .*renamed\/images; label the new rolls with those classes\.$/m);
    expect(r.out).not.toMatch(/Recalibrate/);
  });

  it('with -o writes a new profile holding the checked dice, which sessions then bound misreads by, adding up check after check', async () => {
    const profile = join(tmp, 'check.json');
    await ringProfileAt(profile);
    const before = readFileSync(profile, 'utf8');
    const once = join(tmp, 'checked-once.json');
    const r = await runCli('calibrate', '--check', profile, '--images', GOOD, '-o', once, '--json');
    expect(r.code, r.err).toBe(0);
    const shown = JSON.parse(r.out) as { wrote: string; confusion: { rows: string[]; columns: string[]; counts: number[][] } };
    expect(shown.wrote).toBe(once);
    const first = await readProfileFile(once);
    expect(first.checked?.images).toBe(6);
    expect(first.checked?.confusion).toEqual(shown.confusion);
    expect(first.hash).not.toBe(readProfile(profile).hash);
    expect(readFileSync(profile, 'utf8')).toBe(before);
    // A second check of the same six images on the checked profile: the counts add up.
    const twice = join(tmp, 'checked-twice.json');
    const again = await runCli('calibrate', '--check', once, '--images', GOOD, '-o', twice);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(new RegExp(`^wrote ${twice.replace(/[/.]/g, '\\$&')} \\([0-9a-f]{12}\\): the profile with these dice added to its checked dice, 12 images in all; sessions that read with it bound misreads by their reads \\(red-hit \\d+, red-crit \\d+, red-focus \\d+, red-blank \\d+\\), not by its validation dice\\.$`, 'm'));
    expect(again.out).toMatch(/^ {2}verdicts with it: misreads bounded by its 12 checked images' dice, so a session can certify a fair red die to ±\d+\.\d % at best/m);
    const second = await readProfileFile(twice);
    expect(second.checked?.images).toBe(12);
    expect(second.checked?.confusion.counts).toEqual(shown.confusion.counts.map((row) => row.map((n) => 2 * n)));
    const red = getDieType('red');
    const measured = misreadMeasure({ level: 'symbol', profile: second })(red);
    expect(measured.source).toBe(`calibration profile "check" (${shortHash(second)}, dice checked on 12 new images)`);
    expect(measured.faces?.map((f) => f.read)).toEqual(profileMisreadCounts(second, 'red', red.symbols).map((f) => f.read));
    const hits = shown.confusion.rows.indexOf('red-hit');
    expect(measured.faces?.[0]?.read).toBe(2 * (shown.confusion.counts[hits]?.slice(0, 4).reduce((a, b) => a + b, 0) ?? NaN));
  });

  it('lets plan allow for the misreads a profile bounds, as a session reading with it would, and refuses dice it does not read', async () => {
    const twice = join(tmp, 'checked-twice.json');
    const profile = await readProfileFile(twice);
    const red = getDieType('red');
    const measured = misreadMeasure({ level: 'symbol', profile })(red);
    const limit = certifiableMarginLimit(symbolProbabilities(red), measured.faces?.map((f) => f.bound) ?? []);
    const j = await runCli('plan', '--die', 'red', '--calibration', twice, '--delta', '0.05', '--json');
    expect(j.code, j.err).toBe(0);
    const plan = JSON.parse(j.out) as { certify: { session: { median: number | null }; outOfReach?: true; misreadLimit: number }; misreads: { statement: string } };
    expect(plan.certify.misreadLimit).toBeCloseTo(limit, 12);
    expect(plan.misreads.statement).toBe(measured.statement);
    // The checked dice that lay cocked and were read as a face widen every bound the plan allows for.
    const { dice, readAsFace } = profileCockedReads(profile);
    expect(dice).toBeGreaterThan(0);
    expect(plan.misreads.statement).toMatch(new RegExp(`; each holds [\\d.]+ % for a die cocked and read as a face \\(${readAsFace} of ${dice.toLocaleString('en-US')} dice\\); the error control holds where these bounds do`));
    const text = await runCli('plan', '--die', 'red', '--calibration', twice, '--delta', '0.05');
    expect(text.out).toContain(`Misreads ${measured.statement.replace(/^misreads /, '')}.`);
    // Twelve checked images of simulated red dice hold few crits: their bound keeps ±0.05 out of reach, ±0.2 not.
    expect(limit).toBeGreaterThan(0.05);
    expect(limit).toBeLessThan(0.2);
    expect(plan.certify).toMatchObject({ outOfReach: true, session: { median: null } });
    expect(text.out).toMatch(/To certify FAIR_WITHIN\(±0\.05\) by symbol: out of reach with these misread bounds, however long the die rolls \(a fair die gets no closer than ±[\d.]+\); check the profile on new rolls \(dicerig calibrate --check .*checked-twice\.json --camera DEVICE -o NEW\.json: new throws on the rig, named a group at a time; or --images DIR instead of --camera, for rolls labelled already\) to narrow them\./);
    const wide = await runCli('plan', '--die', 'red', '--calibration', twice, '--delta', '0.2');
    expect(wide.out).toMatch(/To certify FAIR_WITHIN\(±0\.2\) by symbol, if the die is fair and read as it falls, allowing for those misreads \(a fair die gets no closer than ±[\d.]+\):\n {2}a session \(each of its 4 dice at alpha\/4\): half of fair dice by [\d,]+ rolls/);
    const green = await runCli('plan', '--die', 'green', '--calibration', twice);
    expect(green.code).toBe(1);
    expect(green.err).toMatch(/checked-twice\.json.*the profile reads red dice, not green/);
    const faces = await runCli('plan', '--die', 'red', '--calibration', twice, '--level', 'face');
    expect(faces.err).toMatch(/--calibration plans for X-Wing dice, read by symbol; drop --level face/);
  });

  it('refuses to write the checked profile over the one it checks, which past sessions name by its hash', async () => {
    const profile = join(tmp, 'check.json');
    const before = readFileSync(profile, 'utf8');
    const r = await runCli('calibrate', '--check', profile, '--images', GOOD, '-o', profile);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/-o .*check\.json is the profile being checked; write the checked profile to a new file/);
    expect(readFileSync(profile, 'utf8')).toBe(before);
  });

  it('writes nothing with -o when no flat die of the profile classes was checked', async () => {
    const renamed = join(tmp, 'renamed');
    const out = join(tmp, 'nothing-checked.json');
    const r = await runCli('calibrate', '--check', join(tmp, 'check.json'), '--images', renamed, '-o', out);
    expect(r.code).toBe(1);
    expect(existsSync(out)).toBe(false);
  });

  it('needs the new rolls, from one place', async () => {
    const r = await runCli('calibrate', '--check', join(tmp, 'check.json'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--check needs new labelled rolls: --images DIR .*, or --camera sim\|DEVICE\|THROWS to throw and name them/);
    const both = await runCli('calibrate', '--check', join(tmp, 'check.json'), '--images', GOOD, '--camera', 'sim');
    expect(both.code).toBe(1);
    expect(both.err).toMatch(/--check takes its new rolls from --images or from --camera, not both/);
  });

  it('throws new rolls on the rig and has them named a group at a time, then checks the profile on them and adds them', async () => {
    const profile = join(tmp, 'oncamera.json');
    await ringProfileAt(profile);
    const out = join(tmp, 'oncamera-checked.json');
    const { io, seen } = personAt(join(tmp, 'oncamera-checked.groups'), (group) => (Object.keys(group.simulatorTruth ?? {}).length > 1 ? 'split' : majorityName(group)));
    const code = await main(['node', 'dicerig', 'calibrate', '--check', profile, '--camera', 'sim', '--throws', '12', '--channels', '4', '--dice-per-channel', '2', '--seed', '23', '-o', out], io);
    expect(seen.stderr).not.toMatch(/dicerig:/);
    expect(io.exitCode).toBe(0);
    expect(code).toBe(0);
    const throws = join(tmp, 'oncamera-checked.throws');
    expect(seen.stderr).toContain(`Every throw is kept in ${throws} as it is taken`);
    // Whatever the profile's reader, the shipped network groups the new dice: the checked reader names none of them.
    expect(seen.stderr).toMatch(/^Step 4 of 4: naming groups of dice the network sees alike\.$/m);
    expect(seen.asked.length).toBeGreaterThan(0);
    expect(seen.stdout).toContain(`calibrate --check: profile ${profile} (classifier d8-rings/1+`);
    expect(seen.stdout).toContain(`on 12 images in ${join(throws, 'images')}`);
    expect(seen.stdout).toMatch(/^verdict: the profile still holds/m);
    const checked = await readProfileFile(out);
    expect(checked.checked?.images).toBe(12);
    expect(readFileSync(join(throws, 'labels', 'classes.txt'), 'utf8')).toBe('red-hit\nred-crit\nred-focus\nred-blank\ncocked\n');
  });
});

describe('dicerig calibrate --camera (guided steps)', () => {
  it('asks a person at a terminal to name each group once, then saves the profile, reference and channels', async () => {
    const out = join(tmp, 'guided', 'asked.json');
    const { io, seen } = personAt(join(tmp, 'guided', 'asked.groups'), (group, question) => {
      // The question names the group's picture, beside the listing.
      expect(question).toContain(`(see ${join(tmp, 'guided', 'asked.groups', `group-${String(group.group).padStart(2, '0')}.png`)})`);
      return majorityName(group);
    });
    const code = await main(
      // 12 throws of 8 dice make a profile that validates with no confident error, as 24 did, for half the throws.
      ['node', 'dicerig', 'calibrate', '--die', 'red', '--camera', 'sim', '--throws', '12', '--channels', '4', '--dice-per-channel', '2', '--seed', '9', '--out', out, '--created-at', CREATED],
      io,
    );
    expect(seen.stderr).not.toMatch(/dicerig:/);
    expect(code).toBe(0);
    expect(seen.stderr).toMatch(/^Step 1 of 4: empty-platform reference from the simulated camera \(seed 9, studio lighting\)\.$/m);
    expect(seen.stderr).toMatch(/^ {2}channel 3: x 959-1256, y 24-696$/m);
    const p = readProfile(out);
    expect(seen.asked).toHaveLength(Object.keys(readFileSync(join(tmp, 'guided', 'asked.groups', 'groups.json'), 'utf8').match(/"group"/g) ?? {}).length);
    expect(p.channels).toHaveLength(4);
    // The simulated camera's flat-drawn dice are the ring reader's by default.
    expect(p.classifier.kind).toBe('d8-ring-harmonics/nearest-mean');
    expect(p.validation.confidentErrors).toBe(0);
    const ref = join(tmp, 'guided', 'asked.reference.png');
    expect(p.reference).toEqual({ file: 'asked.reference.png', sha256: createHash('sha256').update(readFileSync(ref)).digest('hex') });
    expect(seen.stdout).toContain(`Calibration profile written to ${out}`);
  });

  it('without a terminal, writes the groups and a labels template, then takes the names from --labels-from', async () => {
    const out = join(tmp, 'labelled', 'red.json');
    // 12 throws (not 24): what is checked here, the groups, the template and the replay naming them, holds at any count.
    const args = ['calibrate', '--die', 'red', '--camera', 'sim', '--throws', '12', '--channels', '4', '--dice-per-channel', '2', '--seed', '10', '--out', out, '--created-at', CREATED];
    const first = await runCli(...args);
    expect(first.code).toBe(1);
    const throws = join(tmp, 'labelled', 'red.throws');
    expect(first.err).toContain(`No terminal to ask in: fill in ${join(tmp, 'labelled', 'red.groups', 'labels-template.txt')} and run again with --camera ${throws} --labels-from FILE`);
    expect(first.err).toMatch(/dicerig: Group 1 has no name and there is no one to ask/);
    const groups = join(tmp, 'labelled', 'red.groups');
    expect(existsSync(join(groups, 'group-01.png'))).toBe(true);
    expect(readFileSync(join(groups, 'labels-template.txt'), 'utf8')).toMatch(/^1 \?$/m);
    const listing = JSON.parse(readFileSync(join(groups, 'groups.json'), 'utf8')) as GroupListing[];
    const names = join(tmp, 'labelled', 'names.txt');
    writeFileSync(names, listing.map((g) => `${g.group} ${majorityName(g)}`).join('\n'));
    // The same command again would throw again: the folder of kept throws is refused, and names the way to reuse it.
    const again = await runCli(...args, '--labels-from', names);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`name its throws with --camera ${throws} to use them again`);
    const second = await runCli('calibrate', '--die', 'red', '--camera', throws, '--out', out, '--created-at', CREATED, '--labels-from', names);
    expect(second.err).not.toMatch(/dicerig:/);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/^Step 3 of 4: 12 throws kept from an earlier calibration\.$/m);
    // With the camera's seed (10) kept as the grouping's, the replay forms the groups the names were given to.
    const regrouped = JSON.parse(readFileSync(join(groups, 'groups.json'), 'utf8')) as GroupListing[];
    expect(regrouped.map((g) => g.dice)).toEqual(listing.map((g) => g.dice));
    // Replayed, the throws locate and group as the first run did: every group the template listed gets its name.
    expect(readProfile(out).training.source).toMatch(new RegExp(`^guided calibration: 12 throws on the throws kept in ${throws.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(taken with the simulated camera \\(seed 10, studio lighting\\)\\), ${listing.length} groups named$`));
  });

  it('with the learned reader, names the kept throws\' groups, makes them a labelled folder and builds the profile from it with the platform', async () => {
    const out = join(tmp, 'learned', 'xw.json');
    const throws = join(tmp, 'learned', 'xw.throws');
    let slipped = 0;
    const { io, seen } = personAt(join(tmp, 'learned', 'xw.groups'), (group, question) => {
      const truth = Object.keys(group.simulatorTruth ?? {});
      // One slip: a small group of red hits is called red blanks.
      if (slipped === 0 && truth.length === 1 && truth[0] === 'red-hit' && group.dice >= 2 && group.dice <= 5) {
        slipped = group.dice;
        return 'red-blank';
      }
      // Otherwise a careful person: a group showing two faces is split rather than named by its commoner one.
      return truth.length > 1 && question.includes('split') ? 'split' : majorityName(group);
    });
    const args = ['calibrate', '--die', 'xwing', '--camera', 'sim', '--reader', 'learned', '--throws', '16', '--channels', '4', '--dice-per-channel', '2', '--seed', '12', '--no-fine-tune', '--created-at', CREATED];
    const code = await main(['node', 'dicerig', ...args, '--out', out], io);
    expect(seen.stderr).not.toMatch(/dicerig:/);
    expect(code).toBe(0);
    expect(seen.stderr).toMatch(/^Step 4 of 4: naming groups of dice the network sees alike\.$/m);
    expect(seen.asked[0]).toMatch(/What do they show\? \(red-hit, .*, cocked, skip, split: split when they show more than one\)/);
    const p = readProfile(out);
    expect(p.classifier.kind).toBe('learned-net/head');
    expect(p.channels).toHaveLength(4);
    expect(p.dieSizePx).toBeGreaterThan(68);
    expect(p.dieSizePx).toBeLessThan(76);
    expect(p.reference).toEqual({ file: join('xw.throws', 'reference.png'), sha256: createHash('sha256').update(readFileSync(join(throws, 'reference.png'))).digest('hex') });
    expect(p.training.source).toMatch(/^guided calibration: 16 throws on the simulated camera \(seed 12, studio lighting\), \d+ groups named \(labelled folder .*xw\.throws: \d+ dice\)$/);
    expect(readFileSync(join(throws, 'labels', 'classes.txt'), 'utf8')).toBe('red-hit\nred-crit\nred-focus\nred-blank\ngreen-evade\ngreen-focus\ngreen-blank\ncocked\n');
    expect(seen.stderr).toContain(`${throws} is now a labelled folder (calibrate --from-labelled ${throws} fits the same reader on it`);
    // Dice the network sees as another named face are kept, and listed for a person to check, each by its label file:
    // the slip among them.
    expect(slipped).toBeGreaterThan(0);
    const doubted = Number(/ {2}(\d+) named dice look more like another named face than their own \(kept/.exec(seen.stderr)?.[1] ?? 0);
    expect(doubted).toBeGreaterThanOrEqual(slipped);
    const lines = readFileSync(join(tmp, 'learned', 'xw.groups', 'doubtful.txt'), 'utf8').split('\n').filter((l) => /^\d+\. /.test(l));
    expect(lines).toHaveLength(doubted);
    const classes = readFileSync(join(throws, 'labels', 'classes.txt'), 'utf8').trim().split('\n');
    for (const line of lines) {
      const m = /^\d+\. (.*\.txt) line (\d+): the die at x (\d+), y (\d+), named (\S+), looks more like (\S+)$/.exec(line);
      expect(m).not.toBeNull();
      // The line named is the die's: its class is the name, its box centred where the die lies (frames 1280x720).
      const [cls, cx, cy] = (readFileSync(m?.[1] as string, 'utf8').split('\n')[Number(m?.[2]) - 1] ?? '').split(' ').map(Number);
      expect(classes[cls as number]).toBe(m?.[5]);
      expect(Math.abs((cx as number) * 1280 - Number(m?.[3]))).toBeLessThanOrEqual(1);
      expect(Math.abs((cy as number) * 720 - Number(m?.[4]))).toBeLessThanOrEqual(1);
      expect(m?.[5]).not.toBe(m?.[6]);
    }
    expect(lines.filter((l) => l.endsWith('named red-blank, looks more like red-hit'))).toHaveLength(slipped);
    expect(existsSync(join(tmp, 'learned', 'xw.groups', 'doubtful.png'))).toBe(true);

    // The folder alone fits the same reader, validated alike: what was named is what was fitted.
    const again = join(tmp, 'learned', 'again.json');
    const remade = await runCli('calibrate', '--die', 'xwing', '--from-labelled', throws, '--no-fine-tune', '--created-at', CREATED, '--name', 'xw', '--out', again);
    expect(remade.code).toBe(0);
    const q = readProfile(again);
    expect(q.classifier).toEqual(p.classifier);
    expect(q.validation).toEqual(p.validation);

    // Named once, the throws are not named over: their labels may have been corrected by hand since.
    const renamed = await runCli('calibrate', '--die', 'xwing', '--camera', throws, '--reader', 'learned', '--no-fine-tune', '--out', join(tmp, 'learned', 'third.json'));
    expect(renamed.code).toBe(1);
    expect(renamed.err).toContain(`these throws are named already (${join(throws, 'labels')}): calibrate --die xwing --from-labelled ${throws} uses those names`);
  });

  it('reads kept throws of a real camera with the learned reader unless told otherwise or facing the bottom face, and refuses a folder that holds none', async () => {
    const out = join(tmp, 'real', 'xw.json');
    const throws = join(tmp, 'real', 'xw.throws');
    const first = await runCli('calibrate', '--die', 'xwing', '--camera', 'sim', '--throws', '6', '--channels', '4', '--dice-per-channel', '2', '--out', out);
    expect(first.code).toBe(1);
    // The simulated camera draws its dice flat: its default reader is the ring one.
    expect(first.err).toMatch(/^Step 4 of 4: naming groups of similar dice\.$/m);
    const manifest = JSON.parse(readFileSync(join(throws, 'kept.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(throws, 'kept.json'), JSON.stringify({ ...manifest, camera: 'camera /dev/video0', simulated: false }));
    const replay = await runCli('calibrate', '--die', 'xwing', '--camera', throws, '--out', out);
    expect(replay.code).toBe(1);
    expect(replay.err).toMatch(/^Step 1 of 4: empty-platform reference from the throws kept in .* \(taken with camera \/dev\/video0\)\.$/m);
    expect(replay.err).toMatch(/^Step 3 of 4: 6 throws kept from an earlier calibration\.$/m);
    expect(replay.err).toMatch(/^Step 4 of 4: naming groups of dice the network sees alike\.$/m);
    // A die size far from the dice's: too small, lone dice count as touching; too large, the dice measure otherwise.
    const small = await runCli('calibrate', '--die', 'xwing', '--camera', throws, '--die-size', '50', '--out', out);
    expect(small.err).toMatch(/^ {2}warning: \d+ dice were found touching others \(\d+ of them split apart and kept\) or outside the channels against \d+ alone in a channel: unless your dice touch that often, check --die-size \(50 px across corners; measure a die in a frame\) and the channel count\.$/m);
    const large = await runCli('calibrate', '--die', 'xwing', '--camera', throws, '--die-size', '100', '--out', out);
    expect(large.err).toMatch(/^ {2}die size 7\d\.\d px across corners \(measured on \d+ flat-looking dice; --die-size 100 located them\)\.$/m);
    expect(large.err).toMatch(/^ {2}warning: the dice measure 7\d px, not the 100 px they were located by: run again on the kept throws with --die-size 7\d\.$/m);
    // A camera under a clear platform sees the bottom face, which the learned reader does not read: the ring one names it.
    // (Its throws are kept saying so: throws kept from above are refused with --face bottom, keepFramesFace.test.ts.)
    writeFileSync(join(throws, 'kept.json'), JSON.stringify({ ...manifest, camera: 'camera /dev/video0', simulated: false, face: 'bottom' }));
    const bottom = await runCli('calibrate', '--die', 'xwing', '--camera', throws, '--face', 'bottom', '--out', join(tmp, 'real', 'bottom.json'));
    expect(bottom.err).toMatch(/^Step 4 of 4: naming groups of similar dice\.$/m);
    const none = await runCli('calibrate', '--die', 'xwing', '--camera', join(tmp, 'real'), '--out', out);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/--camera names a folder that holds no kept throws \(reference\.png, kept\.json, images\/\); give sim, a camera device such as \/dev\/video0, or the STEM\.throws folder of an earlier guided calibration/);
  });

  it('fails at once, naming the device, when there is no camera', async () => {
    const r = await runCli('calibrate', '--die', 'red', '--camera', '/dev/video-dicerig-none', '--out', join(tmp, 'cam.json'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: Camera \/dev\/video-dicerig-none could not be opened: it does not exist: plug the camera in and check `ls \/dev\/video\*`/);
  });

  it('asks for exactly one way to calibrate', async () => {
    const r = await runCli('calibrate', '--die', 'red');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/give exactly one of --from-labelled DIR, --camera sim\|DEVICE\|THROWS or --check PROFILE \(its new rolls from --images DIR or --camera\)/);
  });
});
