import { cpSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRenderer, drawingHash, drawsAlike, pageFilesHash } from '../../src/camera/render3d/drawingHash.js';

const page = join(import.meta.dirname, '..', '..', 'src', 'camera', 'render3d', 'browser');
const work = mkdtempSync(join(tmpdir(), 'dicerig-drawing-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the page folder, elsewhere on disk. */
function copy(name: string): string {
  const to = join(work, name);
  cpSync(page, to, { recursive: true });
  return to;
}

describe('the drawing code hash', () => {
  const meshes = [{ key: 'd8', positions: [0, 1, 2] }];
  /** The drawing hash of the page files in `dir`. */
  const of = (dir: string, three = '0.187.0', m: unknown = meshes): string => drawingHash(pageFilesHash(dir), three, m);
  const shipped = of(page);

  it('is the same for the same page files wherever they lie, three.js version and meshes', () => {
    expect(shipped).toMatch(/^[0-9a-f]{64}$/);
    expect(pageFilesHash(page)).toMatch(/^[0-9a-f]{64}$/);
    expect(pageFilesHash(copy('same-files'))).toBe(pageFilesHash(page));
    expect(of(copy('same'))).toBe(shipped);
  });

  it('changes when an icon drawing changes by one byte, a page file is added, three.js is another version or a mesh differs', () => {
    const edited = copy('edited');
    appendFileSync(join(edited, 'icons.js'), ' ');
    expect(of(edited)).not.toBe(shipped);
    const added = copy('added');
    writeFileSync(join(added, 'extra.js'), '');
    expect(of(added)).not.toBe(shipped);
    expect(of(page, '0.188.0')).not.toBe(shipped);
    expect(of(page, '0.187.0', [{ key: 'd8', positions: [0, 1, 3] }])).not.toBe(shipped);
  });

  it('does not let bytes moved from the end of one file to the start of the next hash alike', () => {
    const a = copy('shift-a');
    const b = copy('shift-b');
    writeFileSync(join(a, 'a.js'), 'xy');
    writeFileSync(join(a, 'b.js'), 'z');
    writeFileSync(join(b, 'a.js'), 'x');
    writeFileSync(join(b, 'b.js'), 'yz');
    expect(pageFilesHash(a)).not.toBe(pageFilesHash(b));
    expect(of(a)).not.toBe(of(b));
  });

  it('names a renderer in words, and one that did not record itself', () => {
    expect(describeRenderer({ chromium: '156.0.8078.73', drawing: 'abcdef0123456789' })).toBe('Chromium 156.0.8078.73, drawing code abcdef012345');
    expect(describeRenderer(undefined)).toBe('a renderer that did not record itself');
  });

  it('takes two drawing codes for one only when their hashes are the same or known to draw byte for byte alike, either way round', () => {
    const [older, newer] = ['3b6f88203d506c44f1e20d96897890a01dc08e8ade299763b669d7a6cf00f422', 'f82365e2665a3366821ba3e302eb9f64e73fb060ef297c4ddf13f470322f5050'];
    expect(drawsAlike(shipped, shipped)).toBe(true);
    expect(drawsAlike(newer, older)).toBe(true);
    expect(drawsAlike(older, newer)).toBe(true);
    // Through every change known to draw alike since: the page that no longer shows its canvas draws what the first did.
    const hidden = 'ff361161c6235ebcd99c03e75fbc389dac447cbe3b2c06f4328aefe816bad243';
    expect(drawsAlike(hidden, older)).toBe(true);
    expect(drawsAlike(older, hidden)).toBe(true);
    // Any other pair of hashes, however alike their files, is two drawing codes.
    expect(drawsAlike(shipped, of(copy('other-three'), '0.188.0'))).toBe(false);
    expect(drawsAlike(older, shipped)).toBe(false);
    expect(drawsAlike(undefined, older)).toBe(false);
    expect(drawsAlike(undefined, undefined)).toBe(false);
  });
});
