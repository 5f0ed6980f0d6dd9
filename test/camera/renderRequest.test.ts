/**
 * `npm run render`'s command line read into a request (src/camera/render3d/renderRequest.ts): every refusal names the
 * option and what it got, before anything is drawn. The script itself (exit code 2, nothing written) is tested in
 * render3d.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { parseRenderRequest } from '../../src/camera/render3d/renderRequest.js';

const base = ['--dice', 'xwing', '--split', 'train', '--count', '1', '--out', '/tmp/never'];

/** The refusal `args` meet (fails the test when they make a request). */
function refusal(args: readonly string[]): InputError {
  try {
    parseRenderRequest(args);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error(`${args.join(' ')} made a request`);
}

describe('the render command line', () => {
  it('makes the request it names: seeds from the split half of these dice, options given, defaults otherwise', () => {
    expect(parseRenderRequest(['--dice', 'xwing', '--split', 'test', '--count', '300', '--offset', '13900', '--art', 'foreign-2', '--cocked-rate', '0.2', '--out', 'o'])).toEqual({
      out: 'o',
      dice: 'xwing',
      split: 'test',
      firstSeed: 2_013_900,
      count: 300,
      reuse: false,
      emptyPlatform: false,
      art: 'foreign-2',
      look: 'rig',
      cockedRate: 0.2,
    });
    const d6 = parseRenderRequest(['--dice', 'd6', '--split', 'train', '--count', '2', '--out', 'o', '--cocked-tilt', '14,17', '--cocked-on-die', '0', '--dice-per-image', '1', '--reuse', '--empty-platform']);
    expect(d6).toMatchObject({ firstSeed: 500_000, cockedTiltDeg: [14, 17], cockedOnDie: 0, diceCount: [1, 1], reuse: true, emptyPlatform: true });
  });

  it('refuses a share of cocked dice that is not a number within 0..1, which would draw none or make every die lean', () => {
    for (const bad of ['half', '1.5', '-0.1', '', '20%']) {
      expect(refusal([...base, `--cocked-rate=${bad}`]).message).toBe(`--cocked-rate must be a share within 0..1 (got "${bad}").`);
    }
    expect(parseRenderRequest([...base, '--cocked-rate', '1']).cockedRate).toBe(1);
  });

  it('refuses a share of cocked dice leaning on dice outside 0..1', () => {
    for (const bad of ['1.5', '2', 'half', '']) {
      expect(refusal([...base, '--cocked-on-die', bad]).message).toBe(`--cocked-on-die must be a share within 0..1 (got "${bad}").`);
    }
  });

  it('refuses a dice count per image that is not 1..12 dice, fewest first', () => {
    for (const bad of ['0', '3,2', '2,13', '1.5', '1,2,3']) {
      expect(refusal([...base, '--dice-per-image', bad]).message).toBe(`--dice-per-image must be N or MIN,MAX whole dice within 1..12, fewest first (got "${bad}").`);
    }
  });

  it('refuses random artwork for any split but train: tune and test are measured in the artwork they name', () => {
    expect(refusal(['--dice', 'xwing', '--split', 'tune', '--count', '1', '--art', 'random', '--out', 'o']).message).toMatch(
      /--art random is for training only \(--split train\): the tune split is measured in the artwork it names/,
    );
  });

  it("refuses an offset that would run past the split's seeds for these dice, since a seed says its scene's split", () => {
    expect(refusal(['--dice', 'd6', '--split', 'train', '--count', '60', '--offset', '600000', '--out', 'o']).message).toMatch(
      /--offset 600000 with --count 60 runs past the train split's d6 seeds \(500000\.\.999999\): offset \+ count may be at most 500000/,
    );
    expect(refusal(['--dice', 'xwing', '--split', 'test', '--count', '2', '--offset', '499998', '--out', 'o']).message).toMatch(/runs past the test split's xwing seeds \(2000000\.\.2499998\)/);
  });

  it('refuses a lighting or platform preset of another split, naming the split it belongs to, and either for the tray look', () => {
    expect(refusal([...base, '--lighting', 'ceiling-panel-bright,ring-light']).message).toMatch(/^--lighting: Lighting preset "ring-light" belongs to the test split, not train/);
    expect(refusal([...base, '--platform', 'green-baize,green-felt']).message).toMatch(/^--platform: Platform preset "green-felt" belongs to the tune split, not train/);
    expect(refusal([...base, '--platform', 'baize']).message).toMatch(/^--platform: Unknown platform preset "baize"; presets are: .*red-baize \(train\)/);
    const tray = ['--dice', 'd6', '--split', 'train', '--count', '1', '--out', 'o', '--look', 'tray'];
    expect(refusal([...tray, '--platform', 'white-acrylic']).message).toBe('--platform is for the rig look: the tray look has its own platform presets.');
    expect(refusal([...tray, '--lighting', 'window-daylight']).message).toBe('--lighting is for the rig look: the tray look has its own lighting presets.');
  });

  it('lays the dice on the platforms it names, opt-in ones included, as the scene reads them', () => {
    expect(parseRenderRequest([...base, '--platform', 'green-baize, red-baize'])).toMatchObject({ platforms: ['green-baize', 'red-baize'] });
    expect(parseRenderRequest(base)).not.toHaveProperty('platforms');
  });

  it('names a misspelt option with the usage, and a missing folder, dice or split', () => {
    expect(refusal([...base, '--cocked', '0.5']).message).toMatch(/^Unknown option '--cocked'[^]*usage: npm run render -- --dice xwing\|d6/);
    expect(refusal(['--dice', 'xwing', '--split', 'train', '--count', '1']).message).toBe('--out names the folder to write.');
    expect(refusal(['--dice', 'xwing', '--split', 'train', '--count', '1', '--out=']).message).toBe('--out names the folder to write.');
    expect(refusal(['--dice', 'd8', '--split', 'train', '--count', '1', '--out', 'o']).message).toBe('--dice must be xwing or d6.');
    expect(refusal(['--dice', 'd6', '--split', 'dev', '--count', '1', '--out', 'o']).message).toBe('--split must be one of train, tune, test.');
  });
});
