/**
 * The guided calibration on the rig with the ring-harmonics reader: (1) an
 * empty-platform reference, (2) the channel regions found on it, (3) a few
 * dozen throws whose dice are located and cropped (`guidedThrows.ts`), (4) the
 * crops grouped by their icon features and each group named once by the user
 * (`groupNaming.ts`), then a profile trained and validated on held-back throws.
 * The learned reader's guided calibration is `guidedLearned.ts`.
 *
 * The camera, the questions and where cluster pictures go are injected, so the
 * same steps run on the simulated camera in tests and on a real rig.
 */
import type { DieType } from '../../dice/types.js';
import { getDieType } from '../../dice/catalogue.js';
import { DicerigError } from '../../core/errors.js';
import { seededRandom } from '../../stats/random.js';
import type { ChannelRegion } from '../channels.js';
import { describeD8 } from '../d8/describe.js';
import type { D8Description } from '../d8/describe.js';
import { scoreIcon, trainIconModel } from '../d8/iconModel.js';
import { cropRgb, squareAround } from '../../core/image.js';
import type { Point, RgbImage } from '../../core/image.js';
import { clusterCrops } from './cluster.js';
import { nameGroups, SKIP_NAME, truthCounts } from './groupNaming.js';
import type { ClusterView, GroupNamingOptions } from './groupNaming.js';
import { collectGuidedThrows, throwName } from './guidedThrows.js';
import type { DoubtfulDie, GuidedThrowsOptions } from './guidedThrows.js';
import { COCKED_CLASS, parseClassName } from './profile.js';
import { buildD8Profile } from './trainProfile.js';
import type { TrainProfileResult } from './trainProfile.js';

/** What the profile reads: one X-Wing colour or both. */
export type CalibrationDice = 'red' | 'green' | 'xwing';

export function diceIdsOf(dice: CalibrationDice): string[] {
  return dice === 'xwing' ? ['red', 'green'] : [dice];
}

/** The dice a profile reads, as `--die` names them (the inverse of `diceIdsOf`). */
export function calibrationDiceOf(ids: readonly string[]): CalibrationDice {
  return ids.length > 1 ? 'xwing' : (ids[0] as CalibrationDice);
}

/** Outlines longer than this are grouped apart before clustering, and left out of a measured die size (a flat d8 measures about 1.01). */
export const LOOKS_COCKED = 1.1;

export interface GuidedCalibrationOptions extends GuidedThrowsOptions, GroupNamingOptions {
  readonly dice: CalibrationDice;
  /** Seed of the grouping (the same crops and seed ask the same questions). */
  readonly seed: number;
  /** Groups to form (default three per face of the chosen dice). */
  readonly clusterCount?: number;
  readonly name: string;
  readonly createdAt: string;
  readonly face?: 'top' | 'bottom';
  readonly dieTypes?: readonly DieType[];
}

export interface GuidedCalibrationResult extends TrainProfileResult {
  readonly reference: RgbImage;
  readonly channels: readonly ChannelRegion[];
  readonly clusters: readonly ClusterView[];
  /** Dice located but not used: touching others, outside a channel, or not measurable. */
  readonly skippedDice: number;
  /** Named dice whose features point to another named face: named wrong, or hard to read (kept). */
  readonly doubtful: readonly DoubtfulDie[];
}

interface Collected {
  readonly description: D8Description;
  readonly crop: RgbImage;
  readonly group: string;
  readonly throwIndex: number;
  readonly centre: Point;
  readonly truth?: string;
}

/** Runs the guided steps and returns the trained profile (not yet saved). */
export async function runGuidedCalibration(options: GuidedCalibrationOptions): Promise<GuidedCalibrationResult> {
  const { camera, log } = options;
  const dice = diceIdsOf(options.dice).map((id) => getDieType(id, options.dieTypes ?? []));
  const taken = await collectGuidedThrows(options);
  const { reference, channels, referenceFile } = taken;
  const collected: Collected[] = [];
  let skippedDice = taken.skippedDice;
  for (const t of taken.throws) {
    const image = t.dice.length > 0 ? await taken.frame(t.index) : undefined;
    for (const die of t.dice) {
      const crop = cropRgb(image as RgbImage, squareAround(die.center, options.dieSizePx * 1.5));
      const description = describeD8(crop);
      if (typeof description === 'string') {
        skippedDice++;
        continue;
      }
      collected.push({ description, crop, group: throwName(t.index), throwIndex: t.index, centre: die.center, ...(die.truth !== undefined ? { truth: die.truth } : {}) });
    }
  }
  log(`  ${collected.length} dice cropped${skippedDice > 0 ? `, ${skippedDice} skipped (touching, outside the channels or not measurable)` : ''}.`);
  if (collected.length === 0) throw new DicerigError('No dice were found in any throw: check the die size and that the dice are in the channels.');

  log(`Step 4 of 4: naming groups of similar dice.`);
  const flatIdx = collected.flatMap((c, i) => (c.description.outline.elongation <= LOOKS_COCKED ? [i] : []));
  const cockedIdx = collected.flatMap((c, i) => (c.description.outline.elongation > LOOKS_COCKED ? [i] : []));
  const k = options.clusterCount ?? 3 * dice.reduce((n, d) => n + d.symbols.length, 0);
  const groups = clusterCrops(
    flatIdx.map((i) => (collected[i] as Collected).description),
    k,
    seededRandom(options.seed),
  ).map((g) => ({ id: g.id, members: g.members.map((m) => flatIdx[m] as number), typical: g.typical.map((m) => flatIdx[m] as number), looksCocked: false }));
  if (cockedIdx.length > 0) groups.push({ id: groups.length + 1, members: cockedIdx, typical: cockedIdx, looksCocked: true });

  const byId = new Map(groups.map((g) => [g.id, g]));
  const named = await nameGroups(
    groups,
    {
      view: (g) => {
        const truth = truthCounts(g.members.map((m) => (collected[m] as Collected).truth));
        const typical = (byId.get(g.id)?.typical ?? g.members).slice(0, 24);
        return { id: g.id, size: g.members.length, typical: typical.map((m) => (collected[m] as Collected).crop), looksCocked: g.looksCocked, ...(truth ? { truth } : {}) };
      },
    },
    options,
    dice,
  );
  const clusters = named.map((n) => n.view);
  const labels = new Array<string | undefined>(collected.length).fill(undefined);
  for (const { group, view } of named) if (view.name !== SKIP_NAME) for (const m of group.members) labels[m] = view.name;

  // A die whose own features point to another named face than its group's is kept and shown: named wrong, its group
  // mixed faces; named right, it is a hard die, which leaving out would hide from the profile's validation.
  const doubtful: DoubtfulDie[] = [];
  for (const die of dice) {
    const own = collected.flatMap((c, i) => {
      const label = labels[i];
      const parsed = label === undefined ? undefined : parseClassName(label);
      return parsed !== undefined && parsed !== COCKED_CLASS && parsed.die === die.id ? [i] : [];
    });
    if (new Set(own.map((i) => labels[i])).size < 2) continue;
    const model = trainIconModel(own.map((i) => ({ features: (collected[i] as Collected).description.features, label: labels[i] as string })));
    for (const i of own) {
      const c = collected[i] as Collected;
      const nearer = scoreIcon(model, c.description.features).label;
      if (nearer !== labels[i]) doubtful.push({ throwIndex: c.throwIndex, centre: c.centre, label: labels[i] as string, nearer, crop: c.crop });
    }
  }

  const samples = collected.flatMap((c, i) => (labels[i] !== undefined ? [{ label: labels[i] as string, group: c.group, description: c.description }] : []));
  const radii = samples.filter((s) => s.label !== COCKED_CLASS).map((s) => s.description.outline.radius * 2).sort((a, b) => a - b);
  const result = buildD8Profile(samples, {
    name: options.name,
    createdAt: options.createdAt,
    source: `guided calibration: ${taken.throws.length} throws on ${camera.description}, ${clusters.length} groups named`,
    dice: dice.map((d) => d.id),
    channels,
    ...(options.face ? { face: options.face } : {}),
    ...(referenceFile ? { reference: referenceFile } : {}),
    ...(radii.length > 0 ? { dieSizePx: radii[radii.length >> 1] as number } : {}),
    ...(options.dieTypes ? { dieTypes: options.dieTypes } : {}),
  });
  return { ...result, reference, channels, clusters, skippedDice, doubtful };
}
