/**
 * The guided calibration on the rig: (1) an empty-platform reference, (2) the
 * channel regions found on it, (3) a few dozen throws whose dice are located
 * and cropped, (4) the crops grouped by similarity and each group named once by
 * the user, then a profile trained and validated on held-back throws.
 *
 * The camera, the questions and where cluster pictures go are injected, so the
 * same steps run on the simulated camera in tests and on a real rig.
 */
import type { DieType } from '../../dice/types.js';
import { getDieType } from '../../dice/catalogue.js';
import { DicerigError, InputError } from '../../core/errors.js';
import { seededRandom } from '../../stats/random.js';
import type { ChannelRegion } from '../channels.js';
import { describeD8 } from '../d8/describe.js';
import type { D8Description } from '../d8/describe.js';
import { scoreIcon, trainIconModel } from '../d8/iconModel.js';
import { cropRgb, squareAround } from '../../core/image.js';
import type { Point, RgbImage } from '../../core/image.js';
import { locateDice, saturatedDiceLocateOptions } from '../locate.js';
import type { LocateOptions } from '../locate.js';
import { detectChannelRegions } from './channelRegions.js';
import { clusterCrops } from './cluster.js';
import { COCKED_CLASS, parseClassName } from './profile.js';
import { buildD8Profile } from './trainProfile.js';
import type { TrainProfileResult } from './trainProfile.js';

/** A camera over the rig, as the guided steps need it. */
export interface CalibrationCamera {
  readonly description: string;
  /** A frame of the empty platform (a real camera asks the user to clear it first). */
  emptyPlatform(): Promise<RgbImage>;
  /** The settled frame of throw `index` (a real camera asks the user to throw); the simulator also knows the truth. */
  nextThrow(index: number): Promise<{ readonly image: RgbImage; readonly truth?: readonly { readonly center: Point; readonly label: string }[] }>;
}

/** Asks the user a question and returns the answer. */
export type Prompt = (question: string) => Promise<string>;

/** What the profile reads: one X-Wing colour or both. */
export type CalibrationDice = 'red' | 'green' | 'xwing';

export function diceIdsOf(dice: CalibrationDice): string[] {
  return dice === 'xwing' ? ['red', 'green'] : [dice];
}

/** A named answer that means "leave this group out". */
export const SKIP_NAME = 'skip';

/** Area of a regular hexagon (a flat d8 from above) per squared across-corners size. */
export const HEXAGON_AREA_FACTOR = (3 * Math.sqrt(3)) / 8;

/** How X-Wing d8s `dieSizePx` across (corners) are located on a rig: a flat d8's hexagon, with red and green dice's shadow rule. */
export function xwingLocateOptions(dieSizePx: number): LocateOptions {
  return { ...saturatedDiceLocateOptions, expectedDieArea: HEXAGON_AREA_FACTOR * dieSizePx * dieSizePx };
}

/** Outlines longer than this are grouped apart before clustering (a flat d8 measures about 1.01). */
const LOOKS_COCKED = 1.1;

export interface ClusterView {
  readonly id: number;
  readonly size: number;
  /** Crops nearest the group's centre first (at most 24), to show the user. */
  readonly typical: readonly RgbImage[];
  /** Whether the group was set apart because its outlines look cocked. */
  readonly looksCocked: boolean;
  /** The name given (a class, `cocked` or `skip`). */
  readonly name?: string;
  /** Simulated camera only: true classes of the members, to check the grouping. */
  readonly truth?: Readonly<Record<string, number>>;
}

export interface GuidedCalibrationOptions {
  readonly camera: CalibrationCamera;
  readonly dice: CalibrationDice;
  readonly throws: number;
  readonly channels: number;
  readonly dicePerChannel?: number;
  /** Across-corners size of a d8 in the frames, pixels (for locating). */
  readonly dieSizePx: number;
  /** Seed of the grouping (the same crops and seed ask the same questions). */
  readonly seed: number;
  /** Groups to form (default three per face of the chosen dice). */
  readonly clusterCount?: number;
  readonly name: string;
  readonly createdAt: string;
  readonly face?: 'top' | 'bottom';
  readonly log: (line: string) => void;
  /** Names by group id (from a labels file); groups without one are asked through `prompt`. */
  readonly names?: ReadonlyMap<number, string>;
  readonly prompt?: Prompt;
  /** Shows the groups to the user (e.g. writes pictures and a listing) before any is named; returns where to look, by group id. */
  readonly showGroups?: (clusters: readonly ClusterView[]) => Promise<ReadonlyMap<number, string>>;
  /** Keeps the reference image (e.g. a file beside the profile) and says where. */
  readonly saveReference?: (image: RgbImage) => Promise<{ readonly file: string; readonly sha256: string }>;
  readonly dieTypes?: readonly DieType[];
}

export interface GuidedCalibrationResult extends TrainProfileResult {
  readonly reference: RgbImage;
  readonly channels: readonly ChannelRegion[];
  readonly clusters: readonly ClusterView[];
  /** Dice located but not used: touching others, outside a channel, or not measurable. */
  readonly skippedDice: number;
  /** Dice left out because they disagree with their group's name. */
  readonly disagreeing: number;
}

interface Collected {
  readonly description: D8Description;
  readonly crop: RgbImage;
  readonly group: string;
  readonly truth?: string;
}

/** The answers a group may be given for these dice: `<die>-<symbol>` (or the bare symbol with one die), `cocked`, `skip`. */
export function allowedNames(dice: readonly DieType[]): string[] {
  return [...dice.flatMap((d) => d.symbols.map((s) => `${d.id}-${s}`)), COCKED_CLASS, SKIP_NAME];
}

/** Normalises an answer to a class name, or undefined when it names none. */
export function normaliseName(answer: string, dice: readonly DieType[]): string | undefined {
  const a = answer.trim().toLowerCase();
  if (a === COCKED_CLASS || a === SKIP_NAME) return a;
  const parsed = parseClassName(a);
  if (parsed !== undefined && parsed !== COCKED_CLASS && dice.some((d) => d.id === parsed.die && d.symbols.includes(parsed.symbol))) return a;
  if (dice.length === 1 && (dice[0] as DieType).symbols.includes(a)) return `${(dice[0] as DieType).id}-${a}`;
  return undefined;
}

async function nameOf(cluster: ClusterView, where: string | undefined, options: GuidedCalibrationOptions, dice: readonly DieType[]): Promise<string> {
  const allowed = allowedNames(dice);
  const given = options.names?.get(cluster.id);
  if (given !== undefined) {
    const name = normaliseName(given, dice);
    if (name === undefined) throw new InputError(`group ${cluster.id} is named "${given}", which is none of: ${allowed.join(', ')}.`);
    return name;
  }
  if (!options.prompt) {
    throw new DicerigError(`Group ${cluster.id} has no name and there is no one to ask: name every group in a labels file (lines "<group> <name>", names: ${allowed.join(', ')}) and pass it with --labels-from.`);
  }
  const question =
    `Group ${cluster.id}: ${cluster.size} dice${cluster.looksCocked ? ' whose outlines look cocked' : ''}${where ? ` (see ${where})` : ''}. ` +
    `What do they show? (${allowed.join(', ')}) `;
  for (let attempt = 0; attempt < 5; attempt++) {
    const answer = await options.prompt(question);
    const name = normaliseName(answer, dice);
    if (name !== undefined) return name;
    options.log(`"${answer.trim()}" is not one of: ${allowed.join(', ')}.`);
  }
  throw new InputError(`no usable name for group ${cluster.id} after five answers.`);
}

/** Runs the guided steps and returns the trained profile (not yet saved). */
export async function runGuidedCalibration(options: GuidedCalibrationOptions): Promise<GuidedCalibrationResult> {
  const { camera, log } = options;
  const dice = diceIdsOf(options.dice).map((id) => getDieType(id, options.dieTypes ?? []));
  const dicePerChannel = options.dicePerChannel ?? 1;

  log(`Step 1 of 4: empty-platform reference from ${camera.description}.`);
  const reference = await camera.emptyPlatform();
  const referenceFile = options.saveReference ? await options.saveReference(reference) : undefined;

  log(`Step 2 of 4: channel regions.`);
  const channels = detectChannelRegions(reference, options.channels, dicePerChannel);
  if (typeof channels === 'string') throw new DicerigError(channels, { camera: camera.description });
  for (const c of channels) {
    const xs = c.polygon.map((p) => p.x);
    const ys = c.polygon.map((p) => p.y);
    log(`  channel ${c.id}: x ${Math.min(...xs)}-${Math.max(...xs)}, y ${Math.min(...ys)}-${Math.max(...ys)}`);
  }

  log(`Step 3 of 4: ${options.throws} throws.`);
  const locate = xwingLocateOptions(options.dieSizePx);
  const collected: Collected[] = [];
  let skippedDice = 0;
  for (let t = 0; t < options.throws; t++) {
    const { image, truth } = await camera.nextThrow(t);
    const located = locateDice(image, reference, channels, locate);
    for (const die of located.dice) {
      // A die split from touching dice is left out too: its crop holds part of its neighbour, which would blur the groups.
      if (die.estimatedCount > 1 || die.splitFrom !== undefined || die.channel === undefined) {
        skippedDice += die.estimatedCount;
        continue;
      }
      const crop = cropRgb(image, squareAround(die.center, options.dieSizePx * 1.5));
      const description = describeD8(crop);
      if (typeof description === 'string') {
        skippedDice++;
        continue;
      }
      const known = truth?.reduce<{ label: string; d: number } | undefined>((best, x) => {
        const d = Math.hypot(x.center.x - die.center.x, x.center.y - die.center.y);
        return d < options.dieSizePx / 2 && (!best || d < best.d) ? { label: x.label, d } : best;
      }, undefined);
      collected.push({ description, crop, group: `throw-${String(t).padStart(4, '0')}`, ...(known ? { truth: known.label } : {}) });
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

  const views: ClusterView[] = groups.map((g) => {
    const truthCounts: Record<string, number> = {};
    for (const m of g.members) {
      const t = (collected[m] as Collected).truth;
      if (t !== undefined) truthCounts[t] = (truthCounts[t] ?? 0) + 1;
    }
    return {
      id: g.id,
      size: g.members.length,
      typical: g.typical.slice(0, 24).map((m) => (collected[m] as Collected).crop),
      looksCocked: g.looksCocked,
      ...(Object.keys(truthCounts).length > 0 ? { truth: truthCounts } : {}),
    };
  });
  const shown = options.showGroups ? await options.showGroups(views) : new Map<number, string>();
  const labels = new Array<string | undefined>(collected.length).fill(undefined);
  const clusters: ClusterView[] = [];
  for (const [i, view] of views.entries()) {
    const name = await nameOf(view, shown.get(view.id), options, dice);
    clusters.push({ ...view, name });
    if (name !== SKIP_NAME) for (const m of (groups[i] as { members: number[] }).members) labels[m] = name;
  }

  // A die whose own features point to another named face than its group's is left out, not trusted.
  let disagreeing = 0;
  for (const die of dice) {
    const own = collected.flatMap((c, i) => {
      const label = labels[i];
      const parsed = label === undefined ? undefined : parseClassName(label);
      return parsed !== undefined && parsed !== COCKED_CLASS && parsed.die === die.id ? [i] : [];
    });
    if (new Set(own.map((i) => labels[i])).size < 2) continue;
    const model = trainIconModel(own.map((i) => ({ features: (collected[i] as Collected).description.features, label: labels[i] as string })));
    for (const i of own) {
      if (scoreIcon(model, (collected[i] as Collected).description.features).label !== labels[i]) {
        labels[i] = undefined;
        disagreeing++;
      }
    }
  }
  if (disagreeing > 0) log(`  ${disagreeing} dice look more like another named group than their own and were left out.`);

  const samples = collected.flatMap((c, i) => (labels[i] !== undefined ? [{ label: labels[i] as string, group: c.group, description: c.description }] : []));
  const radii = samples.filter((s) => s.label !== COCKED_CLASS).map((s) => s.description.outline.radius * 2).sort((a, b) => a - b);
  const result = buildD8Profile(samples, {
    name: options.name,
    createdAt: options.createdAt,
    source: `guided calibration: ${options.throws} throws on ${camera.description}, ${clusters.length} groups named`,
    dice: dice.map((d) => d.id),
    channels,
    ...(options.face ? { face: options.face } : {}),
    ...(referenceFile ? { reference: referenceFile } : {}),
    ...(radii.length > 0 ? { dieSizePx: radii[radii.length >> 1] as number } : {}),
    ...(options.dieTypes ? { dieTypes: options.dieTypes } : {}),
  });
  return { ...result, reference, channels, clusters, skippedDice, disagreeing };
}

/**
 * Parses a labels file naming groups: one `<group> <name>` per line (also
 * `<group>: <name>` or `<group>=<name>`); blank lines and `#` comments are ignored.
 */
export function parseGroupNames(text: string, file?: string): Map<number, string> {
  const names = new Map<number, string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const m = /^(\d+)\s*[:=]?\s*(\S+)$/.exec(line);
    if (!m) throw new InputError(`expected "<group> <name>" (e.g. "3 red-hit"), found "${line}"`, { ...(file !== undefined ? { file } : {}), line: i + 1 });
    const id = Number(m[1]);
    if (names.has(id)) throw new InputError(`group ${id} is named twice`, { ...(file !== undefined ? { file } : {}), line: i + 1 });
    names.set(id, m[2] as string);
  });
  return names;
}
