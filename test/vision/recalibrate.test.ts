import { describe, expect, it } from 'vitest';
import { recalibrateCommand } from '../../src/vision/calibration/recalibrate.js';

const xwing = (source: string, hfovDeg?: number) => ({ dice: ['red', 'green'], classifier: hfovDeg === undefined ? {} : { hfovDeg }, training: { source } });

describe('the command that remakes a retired profile', () => {
  it('calibrates again on the dataset root whose images the profile was made from, with its field of view, into the same file', () => {
    expect(recalibrateCommand(xwing('labelled folder /data/my dice/images (150 images, 600 dice)', 62), "/home/ann/ann's xwing.json")).toBe(
      "dicerig calibrate --die xwing --from-labelled '/data/my dice' --hfov 62 -o '/home/ann/ann'\\''s xwing.json'",
    );
  });

  it('keeps a folder of images that is not a dataset root as it is, and names a placeholder when no file is known', () => {
    expect(recalibrateCommand(xwing('labelled folder /data/shots (1 image, 1 die)'))).toBe('dicerig calibrate --die xwing --from-labelled /data/shots -o PROFILE.json');
  });

  it('calibrates one colour as that colour', () => {
    expect(recalibrateCommand({ dice: ['green'], classifier: { hfovDeg: 54 }, training: { source: 'labelled folder /d/images (3 images, 9 dice)' } }, 'g.json')).toBe(
      'dicerig calibrate --die green --from-labelled /d --hfov 54 -o g.json',
    );
  });

  it('names no command when the profile was not made from a labelled folder or not for dice calibrate takes', () => {
    expect(recalibrateCommand(xwing('guided calibration: 40 throws on the simulated camera, 8 groups named'))).toBeUndefined();
    expect(recalibrateCommand({ dice: ['d6'], classifier: {}, training: { source: 'labelled folder /d/images (3 images, 9 dice)' } })).toBeUndefined();
  });
});
