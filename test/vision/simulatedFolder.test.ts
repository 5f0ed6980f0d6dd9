import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSimulatedFolder } from '../../src/vision-io/simulatedFolder.js';

function folder(names: readonly string[]): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'dicerig-simfolder-')), 'images');
  mkdirSync(dir);
  for (const n of names) writeFileSync(join(dir, n), '');
  return dir;
}

describe('telling a folder vision simulate wrote', () => {
  it('takes a folder whose every image is named as the simulated camera names them', () => {
    expect(isSimulatedFolder(folder(['sim-1-s000-f000.jpg', 'sim-1-s000-f001.jpg', 'notes.txt']))).toBe(true);
  });

  it('does not take a folder of photos with one such name among them, an empty folder or none', () => {
    expect(isSimulatedFolder(folder(['sim-1-s000-f000.jpg', 'IMG_0001.jpg']))).toBe(false);
    expect(isSimulatedFolder(folder([]))).toBe(false);
    expect(isSimulatedFolder(join(tmpdir(), 'no-such-dicerig-folder'))).toBe(false);
  });
});
