/**
 * The locator on 3D renders (Debian's Chromium through playwright-core), each scene against its own empty platform as a
 * session's reference, lit by a warm desk lamp or a window with a lamp: hard shadows, and shadows keeping the other
 * light's colour. A lone flat die (touching no other die in the render's truth) should be one blob of one die, and a
 * flat die touching another should be found apart from it. The renders are a committed fixture (see below).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PixelBox } from '../../src/camera/render3d/labels.js';
import { decodeImageFile } from '../../src/camera/decode.js';
import { rectChannel } from '../../src/vision/channels.js';
import { defaultLocateOptions, HEXAGON_AREA_FACTOR, locateDice, saturatedDiceLocateOptions } from '../../src/vision/locate.js';
import type { LocatedDie, LocateOptions } from '../../src/vision/locate.js';

// Rendered once and committed (test/support/renders/README.md has the command): train-split seeds no other set draws
// (train sets use offsets under 22,000), each scene with its empty platform. Drawing them here took a minute of a test run.
const dir = fileURLToPath(new URL('../support/renders/locate-xwing-lamps/', import.meta.url));
const FIRST_SEED = 40_001;
const COUNT = 12;

interface Truth {
  readonly dice: readonly { readonly box: PixelBox }[];
  readonly scene: { readonly placed: readonly { readonly cocked: boolean; readonly touches: readonly (number | 'wall')[] }[] };
}

interface Scene {
  readonly truth: Truth;
  /** The flat dice' indices touching another die in the render's truth. */
  readonly touchesDie: ReadonlySet<number>;
  /** Dice located with `options`, the frame one channel expecting all the scene's dice. */
  readonly locate: (options: Omit<LocateOptions, 'expectedDieArea'>) => readonly LocatedDie[];
}

/** Each rendered scene with a flat die, located against its empty platform at the die size a rig states. */
async function scenes(): Promise<Scene[]> {
  const out: Scene[] = [];
  for (let seed = FIRST_SEED; seed < FIRST_SEED + COUNT; seed++) {
    const name = `r3d-xwing-${seed}`;
    const image = await decodeImageFile(join(dir, 'images', `${name}.jpg`));
    const empty = await decodeImageFile(join(dir, 'empty', `${name}.jpg`));
    const truth = JSON.parse(await readFile(join(dir, 'truth', `${name}.json`), 'utf8')) as Truth;
    const touchesDie = new Set<number>();
    truth.scene.placed.forEach((p, i) => {
      for (const t of p.touches) {
        if (typeof t === 'number') touchesDie.add(i).add(t);
      }
    });
    const flat = truth.dice.filter((_, i) => !truth.scene.placed[i]?.cocked);
    if (flat.length === 0) continue;
    // The die size a rig states for d8s: across the corners, as a flat die's box shows it (the median).
    const sides = flat.map(({ box }) => Math.max(box.width, box.height)).sort((a, b) => a - b);
    const size = sides[sides.length >> 1] as number;
    const channel = rectChannel(1, { x: 0, y: 0, width: image.width, height: image.height }, truth.dice.length);
    out.push({ truth, touchesDie, locate: (options) => locateDice(image, empty, [channel], { ...options, expectedDieArea: HEXAGON_AREA_FACTOR * size * size }).dice });
  }
  return out;
}

/** Whether `box` holds the centre of exactly one located die, and that die is one die (not a blob of several). */
function ownDie(found: readonly LocatedDie[], box: PixelBox): boolean {
  const inBox = found.filter((d) => d.center.x >= box.x && d.center.x <= box.x + box.width && d.center.y >= box.y && d.center.y <= box.y + box.height);
  return inBox.length === 1 && inBox[0]?.estimatedCount === 1;
}

describe('locating rendered X-Wing dice in lamp light against the empty platform', () => {
  it('reads the fixture the README names: twelve scenes from seed 40,001, lamp-lit, each with its empty platform', async () => {
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(summary).toMatchObject({ images: COUNT, firstSeed: FIRST_SEED, diceSet: 'xwing', art: 'house', look: 'rig', lighting: ['desk-lamp-warm', 'window-and-lamp'], emptyPlatform: true });
  });

  it('gives most lone flat d8s a blob of one die with the red-and-green shadow rule, markedly more than the default rule, which joins them to their shadows', async () => {
    const ownBlob = { saturated: 0, default: 0 };
    let lone = 0;
    for (const { truth, touchesDie, locate } of await scenes()) {
      const found = { saturated: locate(saturatedDiceLocateOptions), default: locate(defaultLocateOptions) };
      truth.dice.forEach(({ box }, i) => {
        if (truth.scene.placed[i]?.cocked || touchesDie.has(i)) return;
        lone++;
        for (const rule of ['saturated', 'default'] as const) if (ownDie(found[rule], box)) ownBlob[rule]++;
      });
    }
    expect(lone).toBeGreaterThanOrEqual(15);
    // When written: 22 and 13 of these 31 lone dice (71 % and 42 %); 26 once a channel the platform hardly reflects
    // only had to be darker. Lamp light is the hard case: over every train preset (fresh10e-f1, 262 lone dice) 97 % and
    // 75 %. The rest join a near die through shadow the rule misses (a warm lamp's shadow lit by a cool sky spreads more
    // than 0.4 between channels): see training/README.md.
    expect(ownBlob.saturated / lone).toBeGreaterThanOrEqual(0.6);
    expect(ownBlob.saturated / lone - ownBlob.default / lone).toBeGreaterThanOrEqual(0.15);
  });

  it('finds flat d8s that touch another die apart from it, where without the split they share its blob', async () => {
    const { splitTouching: _, ...noSplit } = saturatedDiceLocateOptions;
    const own = { split: 0, whole: 0 };
    let touching = 0;
    for (const { truth, touchesDie, locate } of await scenes()) {
      const found = { split: locate(saturatedDiceLocateOptions), whole: locate(noSplit) };
      truth.dice.forEach(({ box }, i) => {
        if (truth.scene.placed[i]?.cocked || !touchesDie.has(i)) return;
        touching++;
        for (const rule of ['split', 'whole'] as const) if (ownDie(found[rule], box)) own[rule]++;
      });
    }
    expect(touching).toBeGreaterThanOrEqual(10);
    // When written: 25 of these 25 dice with the split, 2 without.
    expect(own.split / touching).toBeGreaterThanOrEqual(0.8);
    expect(own.whole / touching).toBeLessThanOrEqual(0.3);
  });
});
