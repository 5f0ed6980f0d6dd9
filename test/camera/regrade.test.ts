import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { gradePixels, GRADES, toneCurve, type Grade } from '../../src/camera/regrade/grade.js';
import { regradeFolder } from '../../src/camera/regrade/regradeFolder.js';
import { seededRandom } from '../../src/stats/random.js';

const plain: Grade = { gamma: 1, contrast: 0, lift: 0, whiteBalance: [1, 1, 1], blurSigma: 0, noise: 0, jpegQuality: 90 };

describe('a grade', () => {
  it('keeps every tone curve increasing, and leaves values alone with no gamma, contrast or lift', () => {
    for (const grade of [plain, ...Object.values(GRADES)]) {
      const curve = toneCurve(grade);
      for (let v = 1; v < 256; v++) expect(curve[v]).toBeGreaterThanOrEqual(curve[v - 1] as number);
      expect(curve[255]).toBe(255);
      expect(curve[0]).toBe(grade.lift);
    }
    expect(Array.from(toneCurve(plain))).toEqual(Array.from({ length: 256 }, (_, v) => v));
  });

  it('steepens the mid-tones with contrast over 0 and flattens them under 0, leaving the middle where it is', () => {
    // x = 64/255: x + 0.5 (x - 0.5)(2x) = 0.251 - 0.0624 = 0.1886, so 48; mirrored at 191.
    const steep = toneCurve({ ...plain, contrast: 0.5 });
    expect([steep[64], steep[191], Math.abs((steep[128] as number) - 128) <= 1]).toEqual([48, 207, true]);
    const flat = toneCurve({ ...plain, contrast: -0.5 });
    expect(flat[64]).toBeGreaterThan(64);
    expect(flat[191]).toBeLessThan(191);
    // Lifted blacks: 0 becomes the lift, and the rest is squeezed above it.
    expect(toneCurve({ ...plain, lift: 30 })[0]).toBe(30);
    expect(toneCurve({ ...plain, lift: 30 })[128]).toBe(Math.round(30 + (128 / 255) * 225));
  });

  it('casts colour by its white balance, clipped at white, and draws no noise when it has none', () => {
    const rgb = new Uint8Array([100, 100, 100, 250, 250, 250]);
    let draws = 0;
    const counting = () => {
      draws++;
      return 0.5;
    };
    const out = gradePixels(rgb, { ...plain, whiteBalance: [1.2, 1, 0.5] }, counting);
    expect(Array.from(out)).toEqual([120, 100, 50, 255, 250, 125]);
    expect(draws).toBe(0);
    expect(Array.from(rgb)).toEqual([100, 100, 100, 250, 250, 250]);
    expect(() => gradePixels(new Uint8Array(4), plain, counting)).toThrow(/3 bytes a pixel; got 4 bytes/);
  });

  it("adds sensor noise of the grade's spread, the same for the same seed", () => {
    const grey = new Uint8Array(3 * 20000).fill(128);
    const a = gradePixels(grey, { ...plain, noise: 8 }, seededRandom(3));
    const mean = a.reduce((s, v) => s + v, 0) / a.length;
    const sd = Math.sqrt(a.reduce((s, v) => s + (v - mean) ** 2, 0) / a.length);
    // 60,000 draws: the mean within 0.2 of 128 (about 5 standard errors), the spread within 3 % of 8 (rounding adds 1/12).
    expect(Math.abs(mean - 128)).toBeLessThan(0.2);
    expect(sd).toBeGreaterThan(7.76);
    expect(sd).toBeLessThan(8.24);
    expect(Array.from(gradePixels(grey, { ...plain, noise: 8 }, seededRandom(3)))).toEqual(Array.from(a));
    expect(Array.from(gradePixels(grey, { ...plain, noise: 8 }, seededRandom(4)))).not.toEqual(Array.from(a));
  });
});

describe('regrading a labelled folder', () => {
  let root: string;
  let from: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dicerig-regrade-'));
    from = join(root, 'set');
    for (const d of ['images', 'labels', 'truth']) mkdirSync(join(from, d), { recursive: true });
    // A mid-grey image with a white square (a PNG), and a darker one (a JPEG).
    const grey = Buffer.alloc(64 * 48 * 3, 128);
    for (let y = 10; y < 20; y++) for (let x = 10; x < 20; x++) grey.fill(255, 3 * (y * 64 + x), 3 * (y * 64 + x) + 3);
    await sharp(grey, { raw: { width: 64, height: 48, channels: 3 } }).png().toFile(join(from, 'images', 'a.png'));
    await sharp(Buffer.alloc(32 * 32 * 3, 60), { raw: { width: 32, height: 32, channels: 3 } }).jpeg({ quality: 95 }).toFile(join(from, 'images', 'b.jpg'));
    writeFileSync(join(from, 'labels', 'classes.txt'), 'red-hit\ncocked\n');
    writeFileSync(join(from, 'labels', 'a.txt'), '0 0.23 0.31 0.16 0.21\n');
    writeFileSync(join(from, 'labels', 'b.txt'), '1 0.5 0.5 0.4 0.4\n');
    writeFileSync(join(from, 'truth', 'a.json'), '{"seed": 1}\n');
    writeFileSync(join(from, 'summary.json'), '{"images": 2, "art": "foreign-3"}\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('copies the labels and truth, regrades every image as a JPEG of the same size, and says what it was made from', async () => {
    const to = join(root, 'cold');
    const seen: number[] = [];
    expect(await regradeFolder({ from, to, grade: 'cold', seed: 5, onProgress: (done) => seen.push(done) })).toBe(2);
    expect(seen).toEqual([1, 2]);
    expect(readdirSync(join(to, 'images')).sort()).toEqual(['a.jpg', 'b.jpg']);
    for (const f of ['classes.txt', 'a.txt', 'b.txt']) expect(readFileSync(join(to, 'labels', f), 'utf8')).toBe(readFileSync(join(from, 'labels', f), 'utf8'));
    expect(readFileSync(join(to, 'truth', 'a.json'), 'utf8')).toBe('{"seed": 1}\n');
    expect(JSON.parse(readFileSync(join(to, 'summary.json'), 'utf8'))).toEqual({ images: 2, art: 'foreign-3', regraded: { from, grade: 'cold', ...GRADES.cold, seed: 5 } });
    expect(existsSync(join(to, 'READY'))).toBe(true);
    expect(existsSync(`${to}.partial`)).toBe(false);
    const { data, info } = await sharp(join(to, 'images', 'a.jpg')).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([64, 48]);
    // The cold grade away from the white square, worked by hand: grey 128 times the gains is 115, 125, 143; to the power
    // 1.3 of its share of 255, 0.3551, 0.3958, 0.4715; flattened by -0.2 (x - 0.5)(1 - |2x - 1|), 0.3757, 0.4123,
    // 0.4768: 96, 105, 122, give or take the noise (sd 3, four pixels averaged) and JPEG 60.
    const at = (x: number, y: number, c: number) => data[3 * (y * 64 + x) + c] as number;
    const corner = [0, 1, 2].map((c) => [0, 1, 2, 3].reduce((s, k) => s + at(40 + k, 30 + k, c), 0) / 4);
    [96, 105, 122].forEach((v, c) => expect(Math.abs((corner[c] as number) - v)).toBeLessThan(6));
  });

  it('makes the same copy again from the same seed', async () => {
    await regradeFolder({ from, to: join(root, 'h1'), grade: 'harsh', seed: 9 });
    await regradeFolder({ from, to: join(root, 'h2'), grade: 'harsh', seed: 9 });
    expect(readFileSync(join(root, 'h2', 'images', 'a.jpg')).equals(readFileSync(join(root, 'h1', 'images', 'a.jpg')))).toBe(true);
  });

  it('refuses a folder that exists, a folder without labels and one without images, changing nothing', async () => {
    mkdirSync(join(root, 'taken'));
    writeFileSync(join(root, 'taken', 'keep.txt'), 'mine');
    await expect(regradeFolder({ from, to: join(root, 'taken'), grade: 'filmic', seed: 1 })).rejects.toThrow(InputError);
    await expect(regradeFolder({ from, to: join(root, 'taken'), grade: 'filmic', seed: 1 })).rejects.toThrow(/taken.*already exists; give a new one/);
    expect(readdirSync(join(root, 'taken'))).toEqual(['keep.txt']);
    const bare = join(root, 'bare');
    mkdirSync(join(bare, 'images'), { recursive: true });
    await expect(regradeFolder({ from: bare, to: join(root, 'x'), grade: 'filmic', seed: 1 })).rejects.toThrow(/bare.*not a labelled folder: it needs images\/ and labels\//);
    mkdirSync(join(bare, 'labels'));
    await expect(regradeFolder({ from: bare, to: join(root, 'x'), grade: 'filmic', seed: 1 })).rejects.toThrow(/no image \(\.jpg, \.jpeg, \.png\) in images\//);
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  // The script is run by node with tsx's loader (what the tsx command of `npm run regrade` starts), without npx's and tsx's own starts.
  it('names an unknown grade and the known ones from the command line', async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/regrade-dataset.ts', '--from', from, '--to', join(root, 'y'), '--grade', 'sepia']).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown grade "sepia" (known: filmic, cold, harsh)') });
  });

  it('names a misspelt option with the usage, and prints the usage when asked, with no stack trace', async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/regrade-dataset.ts', '--frm', from]).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/^regrade-dataset: Unknown option '--frm'.*\nusage: npm run regrade -- --from DIR/s) });
    expect((failed as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
    const help = await run(process.execPath, ['--import', 'tsx', 'scripts/regrade-dataset.ts', '--help']);
    expect(help.stdout).toBe('usage: npm run regrade -- --from DIR --to DIR --grade filmic|cold|harsh [--seed N]\n');
  });
});
