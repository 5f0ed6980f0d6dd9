import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/camera/decode.js';
import { InputError } from '../../src/core/errors.js';
import { keptFaces } from '../../src/vision-io/labelledCrops.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';

const tmp = mkdtempSync(join(tmpdir(), 'dicerig-labelled-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

/** A labelled folder of 2x2 images: `labels` maps an image's name to its label file's text (undefined: no label file). */
async function folder(labels: Record<string, string | undefined>, classes = '1\n2\n3\n4\n5\n6\n', extraLabels: Record<string, string> = {}): Promise<string> {
  const root = join(tmp, `set${++n}`);
  mkdirSync(join(root, 'images'), { recursive: true });
  mkdirSync(join(root, 'labels'));
  writeFileSync(join(root, 'labels', 'classes.txt'), classes);
  const png = await encodePng({ width: 2, height: 2, data: new Uint8Array(12) });
  for (const [name, text] of Object.entries(labels)) {
    writeFileSync(join(root, 'images', `${name}.png`), png);
    if (text !== undefined) writeFileSync(join(root, 'labels', `${name}.txt`), text);
  }
  for (const [name, text] of Object.entries(extraLabels)) writeFileSync(join(root, 'labels', name), text);
  return join(root, 'images');
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(InputError);
  return (e as InputError).message;
}

const d6Faces = keptFaces((c) => c === 'cocked' || !c.includes('-'));

describe('labelled folders refuse ground truth that cannot be right', () => {
  it('refuses a blank line among the classes of classes.txt (it would shift every class after it onto another face), and takes blank lines at its end', async () => {
    const images = await folder({ a: '5 0.5 0.5 0.5 0.5\n' }, '1\n2\n\n3\n4\n5\n6\n');
    expect(await refusal(readLabelledFolder(images))).toMatch(/classes\.txt, line 3: line 3 is blank, but later lines name classes: a class's number is its line \(the first is 0\), so a blank line shifts every class after it onto another; remove it/);
    const trailing = await folder({ a: '5 0.5 0.5 0.5 0.5\n' }, '1\n2\n3\n4\n5\n6\n\n\n');
    expect((await readLabelledFolder(trailing)).classes).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('refuses pixel coordinates, naming the file, the line and the likely cause', async () => {
    const images = await folder({ a: '0 0.5 0.5 0.1 0.1\n3 265 312 38 33\n' });
    expect(await refusal(readLabelledFolder(images))).toMatch(/labels\/a\.txt, line 2: cx 265 is not a fraction 0–1 \(pixel coordinates\?/);
  });

  it('refuses a centre outside the image and a size of zero, below zero or over the whole image', async () => {
    expect(await refusal(readLabelledFolder(await folder({ a: '1 1.5 0.3 0.06 0.05\n' })))).toMatch(/a\.txt, line 1: cx 1\.5 is not a fraction 0–1/);
    expect(await refusal(readLabelledFolder(await folder({ a: '1 0.5 -0.1 0.06 0.05\n' })))).toMatch(/line 1: cy -0\.1 is not a fraction 0–1/);
    expect(await refusal(readLabelledFolder(await folder({ a: '\n1 0.5 0.5 -0.05 0.05\n' })))).toMatch(/line 2: width -0\.05 is not above 0/);
    expect(await refusal(readLabelledFolder(await folder({ a: '1 0.5 0.5 0.05 0\n' })))).toMatch(/line 1: height 0 is not above 0/);
    expect(await refusal(readLabelledFolder(await folder({ a: '1 0.5 0.5 1.2 0.1\n' })))).toMatch(/line 1: width 1\.2 is more than the whole image/);
  });

  it('reads a box that touches or crosses the edge, its centre inside the image', async () => {
    const read = await readLabelledFolder(await folder({ a: '1 1 0 0.1 0.1\n2 0.98 0.5 0.1 1\n' }));
    expect(read.photos[0]?.boxes.map((b) => b.className)).toEqual(['2', '3']);
  });

  it('refuses a face the die does not have where a label uses it, naming classes.txt and its line, and the label file and line', async () => {
    const images = await folder({ a: '0 0.5 0.5 0.1 0.1\n6 0.2 0.2 0.1 0.1\n' }, '1\n2\n3\n4\n5\n6\n7\n');
    const message = await refusal(readLabelledFolder(images, undefined, d6Faces));
    expect(message).toMatch(/labels\/a\.txt, line 2: class 6 is "7" \(line 7 of .*labels\/classes\.txt\): a D6 has no "7" face \(its faces are 1, 2, 3, 4, 5, 6\)/);
    const xwing = await folder({ a: '1 0.5 0.5 0.1 0.1\n' }, 'red-hit\nred-evade\n');
    const red = await refusal(readLabelledFolder(xwing, undefined, keptFaces((c) => c.startsWith('red-'))));
    expect(red).toMatch(/a\.txt, line 1: class 1 is "red-evade" \(line 2 of .*classes\.txt\): a red die has no "evade" face/);
    // Classes of dice the reading leaves aside are not its to judge.
    await expect(readLabelledFolder(xwing, undefined, d6Faces)).resolves.toBeDefined();
  });

  it('refuses a class index beyond classes.txt with the file and line', async () => {
    expect(await refusal(readLabelledFolder(await folder({ a: '0 0.5 0.5 0.1 0.1\n9 0.5 0.5 0.1 0.1\n' })))).toMatch(/a\.txt, line 2: class 9 is not in classes\.txt \(which lists 6 classes/);
  });
});

describe('labelled folders name the files that have no partner', () => {
  it('refuses images without a label file, counting and naming them, and reads an empty label file as an image with no dice', async () => {
    const images = await folder({ a: '0 0.5 0.5 0.1 0.1\n', b: undefined, c: undefined, d: undefined, e: undefined, f: '' });
    expect(await refusal(readLabelledFolder(images))).toMatch(/4 of the 6 images have no label file in .*\(b\.png, c\.png, d\.png and 1 more\): label them, or give an image with no dice an empty <name>\.txt/);
    const empty = await readLabelledFolder(await folder({ a: '0 0.5 0.5 0.1 0.1\n', f: '' }));
    expect(empty.photos.map((p) => p.boxes.length)).toEqual([1, 0]);
    expect(empty.warnings).toEqual([]);
  });

  it('warns of label files without an image, naming them', async () => {
    const read = await readLabelledFolder(await folder({ a: '0 0.5 0.5 0.1 0.1\n' }, undefined, { 'gone.txt': '1 0.5 0.5 0.1 0.1\n' }));
    expect(read.photos).toHaveLength(1);
    expect(read.warnings).toEqual([expect.stringMatching(/^1 label file in .*labels has no image in .*images and was not read \(gone\.txt\)/)]);
  });

  it('says which folder is empty: no images, or no label files beside classes.txt', async () => {
    const noImages = join(tmp, 'no-images');
    mkdirSync(join(noImages, 'images'), { recursive: true });
    mkdirSync(join(noImages, 'labels'));
    writeFileSync(join(noImages, 'labels', 'classes.txt'), '1\n');
    writeFileSync(join(noImages, 'labels', 'a.txt'), '0 0.5 0.5 0.1 0.1\n');
    expect(await refusal(readLabelledFolder(join(noImages, 'images')))).toMatch(/no-images\/images: no images here \(looked for \.jpg/);
    const noLabels = await folder({ a: undefined });
    expect(await refusal(readLabelledFolder(noLabels))).toMatch(/labels: no label files here beside classes\.txt/);
  });
});
