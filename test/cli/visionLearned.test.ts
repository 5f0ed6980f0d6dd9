import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

let tmp = '';
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'dicerig-learned-'));
  // Calibration and test frames from different seeds.
  const made = await runCli('vision', 'simulate', '--dice', 'd6', '--out', join(tmp, 'cal'), '--seed', '71000', '--frames', '4', '--cocked-rate', '0.01', '--lighting', 'studio');
  const made2 = await runCli('vision', 'simulate', '--dice', 'd6', '--out', join(tmp, 'test'), '--seed', '72000', '--frames', '2', '--cocked-rate', '0.01', '--lighting', 'studio');
  if (made.code !== 0 || made2.code !== 0) throw new Error(made.err + made2.err);
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('dicerig vision adapt and vision eval --learned', () => {
  it('adapt refuses a folder with no labelled flat die of the kind asked for, naming the classes it found', async () => {
    // Classes renamed away from 1..6: only the cocked dice would be kept, and a head needs faces to fit.
    const bare = join(tmp, 'renamed');
    cpSync(join(tmp, 'cal'), bare, { recursive: true });
    const classes = join(bare, 'labels', 'classes.txt');
    const renamed = readFileSync(classes, 'utf8').split('\n').filter((c) => c.trim() !== '').map((c) => (c.trim() === 'cocked' ? 'cocked' : `pips-${c.trim()}`));
    writeFileSync(classes, `${renamed.join('\n')}\n`);
    const r = await runCli('vision', 'adapt', '--die', 'd6', '--images', bare, '--out', join(tmp, 'never.json'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no labelled d6 dice in .*renamed.*\(classes\.txt lists pips-1, .*cocked; D6 classes are 1 to 6\)/);
  });

  it('adapt refuses a folder lacking a face, before fitting a head that would read that face as another', async () => {
    const no6 = join(tmp, 'no-sixes');
    cpSync(join(tmp, 'cal'), no6, { recursive: true });
    const classes = readFileSync(join(no6, 'labels', 'classes.txt'), 'utf8').split('\n').map((c) => c.trim());
    const six = String(classes.indexOf('6'));
    for (const f of readdirSync(join(no6, 'labels')).filter((n) => n !== 'classes.txt')) {
      const path = join(no6, 'labels', f);
      writeFileSync(path, readFileSync(path, 'utf8').split('\n').filter((l) => l.split(' ')[0] !== six).join('\n'));
    }
    const r = await runCli('vision', 'adapt', '--die', 'd6', '--images', no6, '--out', join(tmp, 'never.json'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the labelled folder has no die showing 6: a head fitted on it would read that face as others; label some of each/);
    expect(existsSync(join(tmp, 'never.json'))).toBe(false);
  });

  it('fits a head on labelled dice and reads other dice with it, printing per-face recall, decline rates and the targets', async () => {
    const head = join(tmp, 'head.json');
    const a = await runCli('vision', 'adapt', '--die', 'd6', '--images', join(tmp, 'cal'), '--out', head);
    expect(a.code, a.err).toBe(0);
    const fitted = /^Fitted a head on (\d+) of (\d+) dice \((\d+) held back to set its threshold\) of 4 images; threshold 0\.\d+/.exec(a.out);
    expect(fitted, a.out).not.toBeNull();
    expect(Number(fitted?.[1]) + Number(fitted?.[3])).toBe(Number(fitted?.[2]));
    const file = JSON.parse(readFileSync(head, 'utf8')) as { model: string; head: { classes: string[]; minProbability: number } };
    expect(file.model).toMatch(/^learned-d6\//);
    const r = await runCli('vision', 'eval', '--die', 'd6', '--learned', '--head', head, '--images', join(tmp, 'test'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^classifier learned-d6\/\d+\+head\/3;/m);
    expect(r.out).toMatch(/^per face: face +dice +recall +declined$/m);
    expect(r.out).toMatch(/^decline spread between faces: /m);
    expect(r.out).toMatch(/^confident errors \(wrong reads at confidence >= 0\.9\): \d+$/m);
    expect(r.out).toMatch(/^ {2}(met {4}|NOT met) correct among read: /m);
    const j = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--learned', '--head', head, '--images', join(tmp, 'test'), '--json')).out) as {
      summary: { total: number; declined: number };
      perFace: { total: number; declined: number; causes: Record<string, number> }[];
      declines: { image: string; truth: string; status: string; cause: string; reason: string }[];
      targets: { name: string; met: boolean }[];
    };
    expect(j.perFace.reduce((s, f) => s + f.total, 0)).toBe(j.summary.total);
    expect(j.perFace.reduce((s, f) => s + f.declined, 0)).toBe(j.summary.declined);
    // Every declined die is listed with the reader's words, and the causes add up to the declines.
    expect(j.summary.declined).toBeGreaterThan(0);
    expect(j.declines).toHaveLength(j.summary.declined);
    for (const d of j.declines) expect(d.reason.length, JSON.stringify(d)).toBeGreaterThan(10);
    expect(j.perFace.reduce((s, f) => s + Object.values(f.causes).reduce((a, b) => a + b, 0), 0)).toBe(j.summary.declined);
    expect(j.targets.map((t) => t.name)).toContain('cocked dice read as a face');
  }, 120_000);

  it('refuses a head file of the wrong shape, a damaged one, and one whose classes do not cover the dice asked for, naming the file', async () => {
    const head = join(tmp, 'head.json');
    const fitted = JSON.parse(readFileSync(head, 'utf8')) as { model: string; head: { classes: string[]; weights: number[]; bias: number[] } };
    const evalWith = async (name: string, content: unknown) => {
      const file = join(tmp, name);
      writeFileSync(file, JSON.stringify(content));
      const r = await runCli('vision', 'eval', '--die', 'd6', '--learned', '--head', file, '--images', join(tmp, 'test'));
      expect(r.code).toBe(1);
      expect(r.err).toContain(`${file}: `);
      return r.err;
    };
    expect(await evalWith('empty-head.json', { model: fitted.model, head: {} })).toMatch(/not a head file of vision adapt: head\.version: /);
    expect(await evalWith('cut.json', { ...fitted, head: { ...fitted.head, weights: fitted.head.weights.slice(0, 100) } })).toMatch(
      /the head has 100 weights; its \d+ classes on the \d+ features of learned-d6\/\d+ need \d+: the file is damaged/,
    );
    // A head that never saw a 6 (its row taken out) would read every 6 as another face.
    const six = fitted.head.classes.indexOf('6');
    const features = fitted.head.weights.length / fitted.head.classes.length;
    const without = {
      ...fitted,
      head: {
        ...fitted.head,
        classes: fitted.head.classes.filter((_, i) => i !== six),
        bias: fitted.head.bias.filter((_, i) => i !== six),
        weights: fitted.head.weights.filter((_, i) => Math.floor(i / features) !== six),
      },
    };
    expect(await evalWith('no-six.json', without)).toMatch(/the head was fitted on d6 dice and has no class for 6: it would read those faces as others/);
  }, 60_000);

  it('refuses a field of view no webcam with a pinhole lens has, in eval, adapt and calibrate alike', async () => {
    for (const args of [
      ['vision', 'eval', '--die', 'd6', '--learned', '--images', join(tmp, 'test'), '--hfov'],
      ['vision', 'adapt', '--die', 'd6', '--images', join(tmp, 'test'), '--out', join(tmp, 'never.json'), '--hfov'],
      ['calibrate', '--die', 'xwing', '--from-labelled', join(tmp, 'test'), '--hfov'],
    ]) {
      for (const deg of ['500', '179', '10']) {
        const r = await runCli(...args, deg);
        expect(r.code).not.toBe(0);
        expect(r.err).toContain(`expected a webcam's horizontal field of view, 20 to 120 degrees (a pinhole lens; most webcams are 50-90), got "${deg}"`);
      }
    }
  });

  it('refuses a head without --learned, and a head fitted on another network', async () => {
    const r = await runCli('vision', 'eval', '--die', 'd6', '--head', 'x.json', '--images', join(tmp, 'test'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--head is a head for the learned reader; add --learned/);
    const stale = join(tmp, 'stale.json');
    writeFileSync(stale, JSON.stringify({ model: 'learned-d6/0', head: { version: 'head/1', classes: ['1'], weights: [], bias: [0], minProbability: 0.9 } }));
    const s = await runCli('vision', 'eval', '--die', 'd6', '--learned', '--head', stale, '--images', join(tmp, 'test'));
    expect(s.code).toBe(1);
    expect(s.err).toMatch(/the head was fitted on learned-d6\/0, not on the shipped learned-d6\/\d+; fit it again/);
  });
});
