/**
 * What `npm run render` is asked to draw, from its command line: every option checked before anything is drawn or
 * written, each refusal naming the option and the value it got (`InputError`). Pure, so the refusals are tested
 * without starting the script or Chromium; `scripts/render-dataset.ts` prints them and exits 2.
 */
import { parseArgs } from 'node:util';
import { InputError } from '../../core/errors.js';
import type { ArtFamily } from './look.js';
import { ART_FAMILIES } from './look.js';
import type { Split } from './presets.js';
import { namedLightingPresets, namedPlatformPresets, SEED_RANGES, SPLITS } from './presets.js';
import type { DiceSet } from './scene.js';
import type { SceneLook } from './tray.js';
import { SCENE_LOOKS } from './tray.js';

export const RENDER_USAGE =
  `usage: npm run render -- --dice xwing|d6 --split ${SPLITS.join('|')} --count N --out DIR [--offset N] [--cocked-rate R] ` +
  `[--cocked-tilt LOW,HIGH] [--cocked-on-die SHARE] [--art ${ART_FAMILIES.join('|')}] [--look ${SCENE_LOOKS.join('|')}] [--lighting NAME[,NAME]] [--platform NAME[,NAME]] [--dice-per-image N|MIN,MAX] [--reuse] [--empty-platform]`;

const OPTIONS = {
  dice: { type: 'string' },
  split: { type: 'string' },
  count: { type: 'string' },
  out: { type: 'string' },
  offset: { type: 'string', default: '0' },
  'cocked-rate': { type: 'string' },
  'cocked-tilt': { type: 'string' },
  'cocked-on-die': { type: 'string' },
  reuse: { type: 'boolean', default: false },
  art: { type: 'string', default: 'house' },
  look: { type: 'string', default: 'rig' },
  lighting: { type: 'string' },
  platform: { type: 'string' },
  'empty-platform': { type: 'boolean', default: false },
  'dice-per-image': { type: 'string' },
} as const;

export interface RenderRequest {
  readonly out: string;
  readonly dice: DiceSet;
  readonly split: Split;
  readonly firstSeed: number;
  readonly count: number;
  readonly reuse: boolean;
  readonly emptyPlatform: boolean;
  readonly art: ArtFamily;
  readonly look: SceneLook;
  readonly cockedRate?: number;
  readonly cockedTiltDeg?: [number, number];
  readonly cockedOnDie?: number;
  readonly lighting?: string[];
  readonly platforms?: string[];
  readonly diceCount?: [number, number];
}

/** A share within 0..1 written as a number; undefined when the text is not one. */
function share(text: string): number | undefined {
  const v = Number(text);
  return text.trim() !== '' && v >= 0 && v <= 1 ? v : undefined;
}

/** The request `args` (the script's arguments, without node and the script) make; throws `InputError` naming what is wrong. */
export function parseRenderRequest(args: readonly string[]): RenderRequest {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    values = parseArgs({ args: [...args], options: OPTIONS }).values;
  } catch (err) {
    // An unknown or misspelt option: one line naming it and the usage, not a stack trace.
    throw new InputError(`${(err as Error).message}\n${RENDER_USAGE}`);
  }
  const fail = (problem: string): never => {
    throw new InputError(problem);
  };
  const dice = values.dice as DiceSet;
  if (dice !== 'xwing' && dice !== 'd6') fail('--dice must be xwing or d6.');
  const split = values.split as Split;
  if (!SPLITS.includes(split)) fail(`--split must be one of ${SPLITS.join(', ')}.`);
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1) fail('--count must be a whole number of images, at least 1.');
  const offset = Number(values.offset);
  if (!Number.isInteger(offset) || offset < 0) fail('--offset must be a whole number, at least 0.');
  // An empty --out names no folder, as a missing one.
  const out = values.out !== undefined && values.out !== '' ? values.out : fail('--out names the folder to write.');
  const [lo, hi] = SEED_RANGES[split];
  // X-Wing and D6 sets of one split use different halves of its range, so they never share a seed.
  const mid = lo + Math.floor((hi - lo) / 2);
  const [first, last] = dice === 'd6' ? [mid, hi] : [lo, mid - 1];
  const firstSeed = first + offset;
  // A seed says its scene's split: an offset past the half would silently draw another split's presets.
  if (firstSeed + count - 1 > last) {
    fail(`--offset ${offset} with --count ${count} runs past the ${split} split's ${dice} seeds (${first}..${last}): offset + count may be at most ${last - first + 1}.`);
  }
  const art = values.art as ArtFamily;
  if (!ART_FAMILIES.includes(art)) fail(`--art must be one of ${ART_FAMILIES.join(', ')}.`);
  if (art === 'random' && split !== 'train') fail(`--art random is for training only (--split train): the ${split} split is measured in the artwork it names.`);
  const look = values.look as SceneLook;
  if (!SCENE_LOOKS.includes(look)) fail(`--look must be one of ${SCENE_LOOKS.join(', ')}.`);
  if (look === 'tray' && dice !== 'd6') fail('--look tray draws D6 dice only (--dice d6).');
  // Preset names of the split (opt-in ones included), for the rig look only: the tray look has presets of its own.
  const presets = (flag: 'lighting' | 'platform', text: string | undefined, check: (split: Split, names: string[]) => unknown): string[] | undefined => {
    if (text === undefined) return undefined;
    if (look === 'tray') fail(`--${flag} is for the rig look: the tray look has its own ${flag} presets.`);
    const names = text.split(',').map((n) => n.trim());
    try {
      check(split, names);
    } catch (err) {
      fail(`--${flag}: ${(err as Error).message}`);
    }
    return names;
  };
  const lighting = presets('lighting', values.lighting, namedLightingPresets);
  const platforms = presets('platform', values.platform, namedPlatformPresets);
  let cockedRate: number | undefined;
  if (values['cocked-rate'] !== undefined) {
    // Not a share (a word, 1.5) would silently draw no cocked dice, or make every die one that may lean.
    cockedRate = share(values['cocked-rate']) ?? fail(`--cocked-rate must be a share within 0..1 (got "${values['cocked-rate']}").`);
  }
  let cockedTiltDeg: [number, number] | undefined;
  if (values['cocked-tilt'] !== undefined) {
    const parts = values['cocked-tilt'].split(',').map(Number);
    const [tlo, thi] = parts;
    if (parts.length !== 2 || tlo === undefined || thi === undefined || !(tlo > 0 && tlo <= thi && thi < 90)) {
      fail(`--cocked-tilt must be LOW,HIGH degrees within 0..90, low first (got "${values['cocked-tilt']}").`);
    }
    cockedTiltDeg = [tlo as number, thi as number];
  }
  let cockedOnDie: number | undefined;
  if (values['cocked-on-die'] !== undefined) {
    cockedOnDie = share(values['cocked-on-die']) ?? fail(`--cocked-on-die must be a share within 0..1 (got "${values['cocked-on-die']}").`);
  }
  let diceCount: [number, number] | undefined;
  if (values['dice-per-image'] !== undefined) {
    // N, or MIN,MAX: 1 is what a rig's channel holds; the scene's own default is 1..7.
    const parts = values['dice-per-image'].split(',').map(Number);
    const [nlo, nhi = nlo] = parts;
    if (parts.length > 2 || nlo === undefined || !Number.isInteger(nlo) || !Number.isInteger(nhi) || nlo < 1 || (nhi as number) < nlo || (nhi as number) > 12) {
      fail(`--dice-per-image must be N or MIN,MAX whole dice within 1..12, fewest first (got "${values['dice-per-image']}").`);
    }
    if (look === 'tray') fail('--dice-per-image is for the rig look: the tray look has its own dice counts.');
    diceCount = [nlo as number, nhi as number];
  }
  return {
    out,
    dice,
    split,
    firstSeed,
    count,
    reuse: values.reuse,
    emptyPlatform: values['empty-platform'],
    art,
    look,
    ...(cockedRate !== undefined ? { cockedRate } : {}),
    ...(cockedTiltDeg !== undefined ? { cockedTiltDeg } : {}),
    ...(cockedOnDie !== undefined ? { cockedOnDie } : {}),
    ...(lighting !== undefined ? { lighting } : {}),
    ...(platforms !== undefined ? { platforms } : {}),
    ...(diceCount !== undefined ? { diceCount } : {}),
  };
}
