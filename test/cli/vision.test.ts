import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDataset } from '../support/datasets.js';
import { runCli } from './runCli.js';
import { heldOutOf } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';

const tmp = mkdtempSync(join(tmpdir(), 'dicerig-vision-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const XW = join(tmp, 'xwing');
const RED_PROFILE = fileURLToPath(new URL('../../calibration/default-red.json', import.meta.url));

interface EvalJson {
  dice: string;
  classifierVersion: string;
  images: number;
  summary: { total: number; read: number; correct: number; declined: number; cocked: number; misread: number };
  perDie: { die: string; total: number; read: number; correct: number; cocked: number; unreadable: number; wrong: number }[];
  confusion: { rows: string[]; columns: string[]; counts: number[][] };
}

beforeAll(async () => {
  // Held-out lighting and seeds (the default profiles never saw either).
  const r = await runCli('vision', 'simulate', '--dice', 'xwing', '--out', XW, '--seed', '70000', '--frames', '6', '--lighting', 'evening', '--frames-per-session', '3');
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
});

describe('dicerig vision simulate', () => {
  it('writes images, YOLO labels and classes.txt in the layout of the shared datasets', () => {
    expect(readdirSync(join(XW, 'images')).filter((f) => f.endsWith('.jpg'))).toHaveLength(6);
    expect(readFileSync(join(XW, 'labels', 'classes.txt'), 'utf8').trim().split('\n')).toEqual([
      'red-hit',
      'red-crit',
      'red-focus',
      'red-blank',
      'green-evade',
      'green-focus',
      'green-blank',
      'cocked',
    ]);
    const labels = readdirSync(join(XW, 'labels')).filter((f) => f !== 'classes.txt');
    expect(labels).toHaveLength(6);
    const line = readFileSync(join(XW, 'labels', labels[0] as string), 'utf8').split('\n')[0] as string;
    expect(line).toMatch(/^[0-7] 0\.\d{6} 0\.\d{6} 0\.\d{6} 0\.\d{6}$/);
  });

  it('refuses an unknown lighting preset, naming the presets', async () => {
    const r = await runCli('vision', 'simulate', '--dice', 'red', '--out', join(tmp, 'x'), '--lighting', 'disco');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/unknown lighting preset "disco"; presets are: studio, desk-lamp, dim, window, evening/);
  });
});

describe('dicerig vision simulate keeps its folders one set', () => {
  it('refuses a folder that holds anything, naming what is there, and with --force replaces only images/, labels/ and empty/', async () => {
    const out = join(tmp, 'twice');
    const sim = (...more: string[]) => runCli('vision', 'simulate', '--dice', 'd6', '--out', out, '--frames', '1', '--channels', '2', ...more);
    expect((await sim('--seed', '5', '--empty-platform')).code).toBe(0);
    writeFileSync(join(out, 'notes.txt'), 'mine\n');
    const again = await sim('--seed', '6');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/twice: the folder is not empty \(it holds empty, images, labels, notes\.txt\): written into, it would mix two sets of photos.*--force/);
    expect(readdirSync(join(out, 'images'))).toEqual(['sim-5-s000-f000.jpg']);
    expect((await sim('--seed', '6', '--force')).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['images', 'labels', 'notes.txt']);
    expect(readdirSync(join(out, 'images'))).toEqual(['sim-6-s000-f000.jpg']);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('refuses dice too big or too many for the frame, or too small to read, saying what fits; takes a cocked rate of 0', async () => {
    const sim = (...more: string[]) => runCli('vision', 'simulate', '--dice', 'd6', '--out', join(tmp, 'never'), '--frames', '1', ...more);
    const big = await sim('--die-size', '600');
    expect(big.code).toBe(1);
    expect(big.err).toMatch(/2 dice 600 px across do not fit in each of 6 channels .*what fits: no die this size in a channel, or dice at most 116 px across/);
    const crowded = await sim('--channels', '40', '--dice-per-channel', '10');
    expect(crowded.err).toMatch(/10 dice 72 px across do not fit in each of 40 channels .*at most 4 channels/);
    expect((await sim('--die-size', '3')).err).toMatch(/dice 3 px across are smaller than the pip counter reads at all \(8 px\)/);
    expect((await runCli('vision', 'simulate', '--dice', 'red', '--out', join(tmp, 'never'), '--die-size', '10')).err).toMatch(/the X-Wing readers read at all \(12 px\)/);
    // Within the grid's bound, but the camera's random tries run out: the frame is refused, not labelled.
    const tight = await sim('--dice-per-channel', '5');
    expect(tight.code).toBe(1);
    expect(tight.err).toMatch(/sim-1-s000-f000: the camera could not lay a die of channel \d+ clear of the others/);
    expect(existsSync(join(tmp, 'never', 'images', 'sim-1-s000-f000.jpg'))).toBe(false);
    const flat = await runCli('vision', 'simulate', '--dice', 'd6', '--out', join(tmp, 'flat'), '--frames', '1', '--cocked-rate', '0');
    expect(flat.code).toBe(0);
    expect(flat.out).toMatch(/cocked 0\)/);
    expect((await runCli('vision', 'simulate', '--dice', 'd6', '--out', join(tmp, 'flat2'), '--cocked-rate', '1')).err).toMatch(/--cocked-rate <p>' argument '1' is invalid/);
  });
});

/** `vision eval --die xwing --images XW --json`, run once for the tests that read its figures. */
let xwingEvalRun: ReturnType<typeof runCli> | undefined;
const xwingEval = (): ReturnType<typeof runCli> => (xwingEvalRun ??= runCli('vision', 'eval', '--die', 'xwing', '--images', XW, '--json'));

describe('dicerig vision eval', () => {
  it('prints per-die accuracy, declines and the confusion matrix for red and green dice in the same frames', async () => {
    const r = await runCli('vision', 'eval', '--die', 'xwing', '--images', XW);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^vision eval: xwing dice in 6 images/);
    expect(r.out).toMatch(/^classifier d8-rings\/1\+[0-9a-f]{12} \(profile .*default-xwing\.json\)/m);
    // With no profile given, it says whose figures these are and what to do for real dice.
    expect(r.out).toMatch(
      /^note: no --calibration: read with the default profile, made on the simulated camera; for photos of your own dice calibrate on them first \(dicerig calibrate --die xwing --from-labelled DIR\) and pass --calibration PROFILE, or read uncalibrated with --learned$/m,
    );
    expect(r.out).toMatch(/^all dice: 72, read \d+, correct \d+ \(accuracy among read 100\.00 %\), declined \d+ .*misread 0$/m);
    expect(r.out).toMatch(/^die\s+dice\s+read\s+correct\s+accuracy\s+declined\s+cocked\s+unreadable\s+misread$/m);
    expect(r.out).toMatch(/^green\s+\d+/m);
    expect(r.out).toMatch(/^red\s+\d+/m);
    expect(r.out).toMatch(/^\s*truth\\read\s+red-hit\s+red-crit\s+red-focus\s+red-blank\s+green-evade\s+green-focus\s+green-blank\s+declined\s+cocked$/m);
  });

  it('gives the same figures as JSON, with one cocked column', async () => {
    const r = await runCli('vision', 'eval', '--die', 'xwing', '--images', join(XW, 'images'), '--labels', join(XW, 'labels'), '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as EvalJson;
    expect(j.summary.total).toBe(72);
    expect(j.summary.misread).toBe(0);
    expect(j.summary.read + j.summary.declined).toBe(72);
    expect(j.perDie.map((d) => d.die)).toEqual(['green', 'red', 'cocked']);
    expect(j.perDie.reduce((a, d) => a + d.total, 0)).toBe(72);
    expect(j.confusion.columns.filter((c) => c === 'cocked')).toHaveLength(1);
    const cocked = j.perDie.find((d) => d.die === 'cocked');
    expect(cocked?.wrong).toBe(0);
  });

  it('reads several folders as one set, each image kept apart by its folder, so a spread can be judged on enough dice', async () => {
    const more = join(tmp, 'xwing-more');
    const sim = await runCli('vision', 'simulate', '--dice', 'xwing', '--out', more, '--seed', '70050', '--frames', '3', '--lighting', 'evening', '--frames-per-session', '3');
    expect(sim.code).toBe(0);
    const one = JSON.parse((await xwingEval()).out) as EvalJson & { perImage: { group: string; total: number }[]; perFace: { total: number; declined: number }[]; spreadOverTargetByChance: number };
    const two = JSON.parse((await runCli('vision', 'eval', '--die', 'xwing', '--images', more, '--json')).out) as typeof one;
    const both = JSON.parse((await runCli('vision', 'eval', '--die', 'xwing', '--images', XW, more, '--json')).out) as typeof one;
    expect(both.images).toBe(9);
    expect(both.summary.total).toBe(one.summary.total + two.summary.total);
    expect(both.summary.declined).toBe(one.summary.declined + two.summary.declined);
    expect(both.perFace.map((f) => f.total)).toEqual(one.perFace.map((f, i) => f.total + (two.perFace[i]?.total ?? 0)));
    expect(both.perImage.map((g) => g.group)).toEqual([...one.perImage.map((g) => `xwing/${g.group}`), ...two.perImage.map((g) => `xwing-more/${g.group}`)]);
    expect(both.spreadOverTargetByChance).toBeGreaterThanOrEqual(0);
    const text = await runCli('vision', 'eval', '--die', 'xwing', '--images', XW, more);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^vision eval: xwing dice in 9 images \(.*xwing\/images, .*xwing-more\/images\)/);
    expect(text.out).toMatch(/a reader declining every face alike \(\d+\.\d %\) would show a spread over 2x on these dice in \d+\.\d % of sets/);
  });

  it('refuses one --labels folder for several image folders, and the same images given twice, however named', async () => {
    const labels = await runCli('vision', 'eval', '--die', 'xwing', '--images', XW, join(tmp, 'xwing-more'), '--labels', join(XW, 'labels'));
    expect(labels.code).toBe(1);
    expect(labels.err).toMatch(/--labels names one labels folder, but 2 image folders were given/);
    const twice = await runCli('vision', 'eval', '--die', 'xwing', '--images', XW, `${XW}/`);
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/hold the same images: their dice would be counted twice/);
    // A dataset folder and its images/ folder are the same images too.
    const nested = await runCli('vision', 'eval', '--die', 'xwing', '--images', XW, join(XW, 'images'));
    expect(nested.code).toBe(1);
    expect(nested.err).toMatch(/xwing and .*xwing\/images hold the same images/);
  });

  it('evaluates only the red boxes (and cocked ones) with --die red', async () => {
    const all = JSON.parse((await xwingEval()).out) as EvalJson;
    const r = await runCli('vision', 'eval', '--die', 'red', '--calibration', RED_PROFILE, '--images', XW, '--json');
    const j = JSON.parse(r.out) as EvalJson;
    // A profile given is the user's own: no note about the default one.
    expect(r.out).not.toContain('no --calibration');
    expect((JSON.parse((await runCli('vision', 'eval', '--die', 'red', '--images', XW, '--json')).out) as { note?: string }).note).toMatch(/^no --calibration: .*--die red --from-labelled DIR/);
    const red = all.perDie.find((d) => d.die === 'red');
    const cocked = all.perDie.find((d) => d.die === 'cocked');
    expect(j.summary.total).toBe((red?.total ?? 0) + (cocked?.total ?? 0));
    expect(j.perDie.map((d) => d.die)).toEqual(['red', 'cocked']);
  });

  it('reads D6 folders with the pip counter, alone or with the learned second opinion, without a misread', async () => {
    const d6 = join(tmp, 'd6');
    await runCli('vision', 'simulate', '--dice', 'd6', '--out', d6, '--seed', '70100', '--frames', '2', '--cocked-rate', '0.01', '--lighting', 'studio');
    const pips = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--reader', 'pips', '--images', d6, '--json')).out) as EvalJson;
    expect(pips.classifierVersion).toBe('d6-pips/1');
    expect(pips.summary.total).toBe(24);
    expect(pips.summary.misread).toBe(0);
    const combined = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--images', d6, '--json')).out) as EvalJson;
    expect(combined.classifierVersion).toBe(`d6-pips/1+${shippedD6Net.version}`);
    expect(combined.summary.total).toBe(24);
    expect(combined.summary.misread).toBe(0);
  });

  it('with --die-size reads a D6 folder that keeps its empty platforms whole frame by whole frame, as a session does: its cocked dice are judged by the blob checks, not read as faces', async () => {
    const framed = join(tmp, 'd6-framed');
    await runCli('vision', 'simulate', '--dice', 'd6', '--out', framed, '--seed', '70110', '--frames', '6', '--cocked-rate', '0.3', '--lighting', 'studio', '--empty-platform');
    const labelled = readdirSync(join(framed, 'labels')).filter((f) => f !== 'classes.txt').flatMap((f) => readFileSync(join(framed, 'labels', f), 'utf8').trim().split('\n'));
    const frames = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--reader', 'pips', '--images', framed, '--die-size', '72', '--json')).out) as EvalJson;
    expect(frames.summary.total).toBe(labelled.length);
    expect(frames.summary.misread).toBe(0);
    const cocked = frames.perDie.find((d) => d.die === 'cocked');
    expect(cocked?.total).toBeGreaterThan(10);
    expect(cocked?.wrong).toBe(0);
    const text = (await runCli('vision', 'eval', '--die', 'd6', '--reader', 'pips', '--images', framed, '--die-size', '72')).out;
    expect(text).toContain('whole frames read against their empty platforms as a session reads them (die size 72 px): location and the blob checks included');
    // Whole frames need the empty platforms, and are read as D6 sessions read them only.
    const bare = await runCli('vision', 'eval', '--die', 'd6', '--images', join(tmp, 'd6'), '--die-size', '72');
    expect(bare.code).toBe(1);
    expect(bare.err).toMatch(/no empty platforms here to read whole frames against: keep each image's beside images\/ as empty\/<name>/);
    const red = await runCli('vision', 'eval', '--die', 'red', '--images', XW, '--die-size', '72');
    expect(red.err).toMatch(/--die-size reads whole frames as a D6 session reads them: it is for --die d6, without --learned/);
  });

  it('reads real tray photos it never trained on with the learned second opinion, declining far fewer than the pip counter, and holds them to the D6 photo targets', async () => {
    // The first ten photos the networks never saw (`heldOutPhotos`, by sorted name), copied with their labels.
    const src = sharedDataset('d6-tray-photos');
    const dir = join(tmp, 'tray');
    mkdirSync(join(dir, 'images'), { recursive: true });
    mkdirSync(join(dir, 'labels'), { recursive: true });
    copyFileSync(join(src, 'labels', 'classes.txt'), join(dir, 'labels', 'classes.txt'));
    const photos = heldOutOf(shippedD6Net, readdirSync(join(src, 'images')).filter((f) => f.endsWith('.jpg')).sort()).slice(0, 10);
    for (const f of photos) {
      copyFileSync(join(src, 'images', f), join(dir, 'images', f));
      const label = f.replace(/\.jpg$/, '.txt');
      copyFileSync(join(src, 'labels', label), join(dir, 'labels', label));
    }
    const pips = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--reader', 'pips', '--images', dir, '--json')).out) as EvalJson;
    const r = await runCli('vision', 'eval', '--die', 'd6', '--images', dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^vision eval: d6 dice in 10 images/);
    expect(r.out).toContain(`\nclassifier d6-pips/1+${shippedD6Net.version}; median `);
    expect(r.out).toContain(`\nnote: the learned classifier was trained on ${shippedD6Net.trainedOn}: figures on those photos are no test of it\n`);
    const combined = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--images', dir, '--json')).out) as EvalJson;
    expect(combined.summary.total).toBe(pips.summary.total);
    // On all of its held-out photos (151..200): 71.1 % declined by the pip counter, 1.7 % with the second opinion (d6-net/6).
    expect(combined.summary.declined).toBeLessThan(pips.summary.declined / 2);
    expect(combined.summary.correct / combined.summary.read).toBeGreaterThanOrEqual(0.95);
    // The issue asks >= 99 % correct among read of D6 photos (>= 99.5 % of renders); both <= 5 % declined.
    expect(r.out).toMatch(/^targets \(D6 photos\):\n {2}(NOT met|met {4}) correct among read: [\d.]+ % \(target >= 99\.0 %\)\n {2}(NOT met|met {4}) declined \(flat dice\): [\d.]+ % \(target <= 5\.0 %\)$/m);
    const targetsOf = (j: unknown): unknown => {
      const { targetSet, targets } = j as { targetSet: string; targets: { name: string; target: string }[] };
      return { targetSet, targets: targets.slice(0, 2).map(({ name, target }) => ({ name, target })) };
    };
    expect(targetsOf(combined)).toEqual({ targetSet: 'D6 photos', targets: [{ name: 'correct among read', target: '>= 99.0 %' }, { name: 'declined (flat dice)', target: '<= 5.0 %' }] });
    const asRenders = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--images', dir, '--json', '--targets', 'renders')).out) as EvalJson;
    expect(targetsOf(asRenders)).toEqual({ targetSet: 'renders', targets: [{ name: 'correct among read', target: '>= 99.5 %' }, { name: 'declined (flat dice)', target: '<= 5.0 %' }] });
    const unknown = await runCli('vision', 'eval', '--die', 'd6', '--images', dir, '--targets', 'photos');
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toMatch(/option '--targets <set>' argument 'photos' is invalid. Allowed choices are renders, d6-photos/);
  }, 60_000);

  it('gives in JSON what the text says where a figure is not a number: null and why, never the string "NaN" or "Infinity"', async () => {
    const dir = join(tmp, 'nothing-read');
    expect((await runCli('vision', 'simulate', '--dice', 'd6', '--out', dir, '--seed', '70130', '--frames', '1', '--cocked-rate', '0')).code).toBe(0);
    const label = join(dir, 'labels', readdirSync(join(dir, 'labels')).find((f) => f !== 'classes.txt') as string);
    const first = readFileSync(label, 'utf8').split('\n')[0] as string;
    const other = (Number(first.split(' ')[0]) + 1) % 6;
    // Only boxes on the bare frame's corner: nothing is read, so there is no accuracy among read.
    writeFileSync(label, `${other} 0.01 0.01 0.02 0.02\n`);
    const none = await runCli('vision', 'eval', '--die', 'd6', '--reader', 'pips', '--images', dir, '--json');
    expect(none.out).not.toMatch(/"(NaN|Infinity)"/);
    const nothing = JSON.parse(none.out) as { summary: { accuracyAmongRead: number | null; accuracyAmongReadWhy?: string }; targets: { value: number | null; valueWhy?: string }[] };
    expect(nothing.summary).toMatchObject({ accuracyAmongRead: null, accuracyAmongReadWhy: 'no die was read' });
    expect(nothing.targets[0]).toMatchObject({ value: null, valueWhy: 'no die to measure it on' });
    // A die of one face read, one of another declined: the spread between them is unbounded, as the text says.
    writeFileSync(label, `${first}\n${other} 0.01 0.01 0.02 0.02\n`);
    const text = await runCli('vision', 'eval', '--die', 'd6', '--reader', 'pips', '--images', dir);
    expect(text.out).toMatch(/decline spread between faces: unbounded/);
    const spread = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--reader', 'pips', '--images', dir, '--json')).out) as { declineSpread: number | null; declineSpreadWhy?: string };
    expect(spread).toMatchObject({ declineSpread: null, declineSpreadWhy: 'unbounded: one face was never declined and another was' });
  });

  it('names the classes it found when a folder holds no labelled dice of the kind asked for, cocked ones aside', async () => {
    const d6 = await runCli('vision', 'eval', '--die', 'd6', '--images', XW);
    expect(d6.code).toBe(1);
    expect(d6.err).toMatch(/no labelled d6 dice in .*xwing.*\/images \(classes\.txt lists red-hit, red-crit, red-focus, red-blank, green-evade, green-focus, green-blank, cocked; D6 classes are 1 to 6\)/);
    // Colourless X-Wing names and a cocked class: only the cocked dice would be kept, and a face reader has no faces to judge.
    const bare = join(tmp, 'colourless');
    mkdirSync(join(bare, 'labels'), { recursive: true });
    cpSync(join(XW, 'images'), join(bare, 'images'), { recursive: true });
    cpSync(join(XW, 'labels'), join(bare, 'labels'), { recursive: true });
    writeFileSync(join(bare, 'labels', 'classes.txt'), 'hit\ncrit\nfocus\nblank\nevade\nfocus-g\nblank-g\ncocked\n');
    const xw = await runCli('vision', 'eval', '--die', 'xwing', '--images', bare);
    expect(xw.code).toBe(1);
    expect(xw.err).toMatch(/no labelled xwing dice in .*colourless\/images \(classes\.txt lists hit, crit, focus, blank, evade, focus-g, blank-g, cocked; X-Wing classes carry the colour/);
  });

  it('refuses a face the dice do not have at load, in eval and calibrate alike, and warns of label files with no image', async () => {
    const bad = join(tmp, 'red-evade');
    cpSync(XW, bad, { recursive: true });
    writeFileSync(join(bad, 'labels', 'classes.txt'), `${readFileSync(join(XW, 'labels', 'classes.txt'), 'utf8')}red-evade\n`);
    const label = readdirSync(join(bad, 'labels')).filter((f) => f !== 'classes.txt').sort()[0] as string;
    writeFileSync(join(bad, 'labels', label), `${readFileSync(join(bad, 'labels', label), 'utf8').trimEnd()}\n8 0.5 0.5 0.05 0.05\n`);
    const line = readFileSync(join(bad, 'labels', label), 'utf8').trimEnd().split('\n').length;
    const refusal = new RegExp(`${label.replace('.', '\\.')}, line ${line}: class 8 is "red-evade" \\(line 9 of .*classes\\.txt\\): a red die has no "evade" face`);
    const evaluated = await runCli('vision', 'eval', '--die', 'xwing', '--images', bad);
    expect(evaluated.code).toBe(1);
    expect(evaluated.err).toMatch(refusal);
    const calibrated = await runCli('calibrate', '--die', 'xwing', '--reader', 'ring', '--from-labelled', bad, '-o', join(tmp, 'never.json'));
    expect(calibrated.code).toBe(1);
    expect(calibrated.err).toMatch(refusal);
    const orphan = join(tmp, 'orphan');
    cpSync(XW, orphan, { recursive: true });
    writeFileSync(join(orphan, 'labels', 'lost.txt'), '0 0.5 0.5 0.05 0.05\n');
    const json = JSON.parse((await runCli('vision', 'eval', '--die', 'xwing', '--images', orphan, '--json')).out) as { warnings: string[] };
    expect(json.warnings).toEqual([expect.stringMatching(/^1 label file in .*orphan\/labels has no image .*\(lost\.txt\)/)]);
  });

  it('names a mistyped folder as missing, not its absent classes.txt', async () => {
    const missing = join(tmp, 'no-such-folder');
    const r = await runCli('vision', 'eval', '--die', 'xwing', '--images', missing);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${missing}: no such folder: a labelled folder holds images/ and labels/ (or is the images folder itself)`);
  });

  it('refuses an X-Wing calibration profile for D6s, which take a D6 check', async () => {
    const r = await runCli('vision', 'eval', '--die', 'd6', '--calibration', RED_PROFILE, '--images', XW);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/not a D6 check \(format "dicerig-calibration"\): D6-faced dice take the file "dicerig calibrate --die d6 --from-labelled DIR" writes/);
  });

  it('explains a profile that is missing or for other dice', async () => {
    const missing = await runCli('vision', 'eval', '--die', 'red', '--calibration', join(tmp, 'nope.json'), '--images', XW);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope\.json: cannot read the calibration profile: the file does not exist\./);
    const wrong = await runCli('vision', 'eval', '--die', 'green', '--calibration', RED_PROFILE, '--images', XW);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/the calibration profile reads red dice, not green; calibrate for them/);
    const noLabels = await runCli('vision', 'eval', '--die', 'red', '--images', tmp, '--labels', join(tmp, 'none'));
    expect(noLabels.code).toBe(1);
    expect(noLabels.err).toMatch(/no classes\.txt found/);
  });
});
