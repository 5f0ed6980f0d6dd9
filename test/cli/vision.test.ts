import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

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

describe('dicerig vision eval', () => {
  it('prints per-die accuracy, declines and the confusion matrix for red and green dice in the same frames', async () => {
    const r = await runCli('vision', 'eval', '--die', 'xwing', '--images', XW);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^vision eval: xwing dice in 6 images/);
    expect(r.out).toMatch(/^classifier d8-rings\/1\+[0-9a-f]{12} \(profile .*default-xwing\.json\)/m);
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

  it('evaluates only the red boxes (and cocked ones) with --die red', async () => {
    const all = JSON.parse((await runCli('vision', 'eval', '--die', 'xwing', '--images', XW, '--json')).out) as EvalJson;
    const r = await runCli('vision', 'eval', '--die', 'red', '--calibration', RED_PROFILE, '--images', XW, '--json');
    const j = JSON.parse(r.out) as EvalJson;
    const red = all.perDie.find((d) => d.die === 'red');
    const cocked = all.perDie.find((d) => d.die === 'cocked');
    expect(j.summary.total).toBe((red?.total ?? 0) + (cocked?.total ?? 0));
    expect(j.perDie.map((d) => d.die)).toEqual(['red', 'cocked']);
  });

  it('reads D6 folders with the pip counter', async () => {
    const d6 = join(tmp, 'd6');
    await runCli('vision', 'simulate', '--dice', 'd6', '--out', d6, '--seed', '70100', '--frames', '2', '--cocked-rate', '0.01', '--lighting', 'studio');
    const j = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--images', d6, '--json')).out) as EvalJson;
    expect(j.classifierVersion).toBe('d6-pips/1');
    expect(j.summary.total).toBe(24);
    expect(j.summary.misread).toBe(0);
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
