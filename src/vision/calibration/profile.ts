/**
 * The calibration profile: a versioned JSON document holding everything a d8
 * reader learned from the user's own dice (classifier parameters, rejection
 * threshold; either the ring-harmonics classifier or the shipped learned
 * network with an optional head fitted on the user's dice), how well it did
 * on held-back samples (confusion matrix, rejection rate, accuracy), and the
 * rig's channel regions. A content hash names the
 * classifier: every read carries it, so a roll log says which calibration read it.
 *
 * Pure: parsing, checking and hashing only; reading and writing files is in
 * `src/camera/profileFile.ts`.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { iconFeatureLength } from '../d8/iconFeatures.js';
import { tunedProblems } from '../learned/fineTune.js';
import type { LearnedModel } from '../learned/model.js';
import { shippedLearnedModels } from '../learned/shipped.js';
import { recalibrateCommand } from './recalibrate.js';

export const PROFILE_FORMAT = 'dicerig-calibration';
export const PROFILE_VERSION = 1;
export const D8_CLASSIFIER_KIND = 'd8-ring-harmonics/nearest-mean';
/** The shipped learned network (top face found by parallax), with an optional head fitted at calibration. */
export const LEARNED_CLASSIFIER_KIND = 'learned-net/head';
/** The class every die type shares: a die not lying flat. */
export const COCKED_CLASS = 'cocked';

const finite = z.number().finite();
const vector = z.array(finite);
const triple = z.tuple([finite, finite, finite]);
const count = z.number().int().nonnegative();

const geometrySchema = z.strictObject({
  outerRadius: z.number().positive().max(0.5),
  rings: z.number().int().min(1).max(32),
  angles: z.number().int().min(8).max(256),
  maxHarmonic: z.number().int().min(0).max(32),
  inkSaturation: z.number().positive(),
});

const iconModelSchema = z.strictObject({
  die: z.string().min(1),
  classes: z.array(z.string().min(1)).min(1),
  center: vector,
  scale: z.array(z.number().positive()),
  centroids: z.array(vector),
  temperature: z.number().min(1),
  noveltyLimit: z.number().positive(),
});

const colourSchema = z.strictObject({
  die: z.string().min(1),
  chromaticity: triple,
  spread: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]),
});

export const confusionSchema = z.strictObject({
  rows: z.array(z.string()),
  columns: z.array(z.string()),
  counts: z.array(z.array(count)),
});

const validationSchema = z.strictObject({
  /** How the held-back samples were chosen. */
  heldBack: z.string(),
  samples: count,
  read: count,
  correct: count,
  declined: count,
  cocked: count,
  /** correct / read; null when nothing was read. */
  accuracy: z.number().min(0).max(1).nullable(),
  /** declined / samples. */
  rejectionRate: z.number().min(0).max(1),
  /** Misreads at or above the rejection threshold. */
  confidentErrors: count,
  /** Cocked dice read as a face. */
  cockedReadAsFace: count,
  confusion: confusionSchema,
});

const ringClassifierSchema = z.strictObject({
  kind: z.literal(D8_CLASSIFIER_KIND),
  geometry: geometrySchema,
  /** Outline major/minor axis ratio above which a die is cocked. */
  cockedElongation: z.number().gt(1),
  /**
   * Die sizes (outline circumradius, pixels) the classifier may read: the calibrated range with a
   * margin. Features are scale-free, but thin strokes blur away on smaller dice: measured, a profile
   * made at 72 px misread a third of evades at 48 px with high confidence, so other sizes are declined.
   */
  radiusRange: z.tuple([z.number().positive(), z.number().positive()]),
  /** Largest colour distance (in spreads) at which a die still counts as one of `colours`. */
  colourLimit: z.number().positive(),
  colours: z.array(colourSchema).min(1),
  models: z.array(iconModelSchema).min(1),
});

const headSchema = z.strictObject({
  version: z.string().min(1),
  classes: z.array(z.string().min(1)).min(2),
  /** [classes][embedding] weights, row by row. */
  weights: vector,
  bias: vector,
  minProbability: z.number().min(0).max(1),
});

const tunedSchema = z.strictObject({
  version: z.string().min(1),
  /** The shipped network's weights after fine-tuning on the user's dice: little-endian float32, base64. */
  weightsBase64: z.string().min(1).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64'),
  /** Per-class thresholds set on held-back images: a read of class c under `thresholds[c]` is declined. */
  thresholds: z.record(z.string(), z.number().min(0).max(1)),
});

const learnedClassifierSchema = z.strictObject({
  kind: z.literal(LEARNED_CLASSIFIER_KIND),
  /** Version of the shipped network the profile was made for (`learned-xwing/3`). */
  model: z.string().min(1),
  /** Last layer fitted on the user's dice, with its own threshold; absent: the network's own last layer, per-class thresholds and cockedAt. */
  head: headSchema.optional(),
  /** The whole network fine-tuned on the user's dice, with its own per-class thresholds (instead of a head). */
  tuned: tunedSchema.optional(),
  /**
   * With `tuned`: a head fitted on the shipped network's embeddings that confirms the fine-tuned network's reads (a
   * read stands only when the head's most probable class is the same; its own threshold is not used).
   */
  confirm: headSchema.optional(),
  /**
   * With `confirm`, 2: a read under the fine-tuned network's threshold stands when the head is sure of the same face
   * (above the head's own threshold). 3: as 2, the head asked which face only (its `cocked` class disputes nothing).
   * 4: as 3, and a read of a face other than a blank at `SURE_OVER_DISPUTE` or more stands over the head's other face.
   * 5: as 4, and the fine-tuned network's own cocked class is asked only where the outline check finds the die at least
   * `OWN_COCKED_NEEDS_OUTLINE` of its threshold tilted; elsewhere its faces are read as if the die lies flat.
   * Absent (profiles made before rule 2): such a read is declined, as the profile's validation was measured.
   */
  confirmRule: z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).optional(),
  /**
   * With `head` or `tuned`: a read of a blank stands only when the shipped network finds a blank at least this likely
   * (set on the user's labelled blanks: `blankWitness.ts`). Absent (profiles made before it): no such check.
   */
  blankWitnessAt: z.number().min(0).max(1).optional(),
  /**
   * With `head` or `tuned`, the witness by what it names (profiles from 2026-11-29 on, in place of `blankWitnessAt`):
   * a read of a blank stands only when the shipped network gives no icon more than `blankWitnessIconAt` (set on the
   * user's labelled blanks: `blankWitness.ts`) and, in the profiles of 2026-11-29 that have it, its cocked class no
   * more than `blankWitnessTiltAt` (calibration no longer sets it).
   */
  blankWitnessIconAt: z.number().min(0).max(1).optional(),
  blankWitnessTiltAt: z.number().min(0).max(1).optional(),
  /**
   * The outline check's threshold on this user's dice, above the shipped one (`outlineLevel.ts`: set on the user's
   * labelled flat dice). Absent (profiles made before it, or too few flat dice): the shipped threshold.
   */
  outlineAt: z.number().min(0).max(1).optional(),
  /** The camera's horizontal field of view, degrees: where the top face lies (perspective parallax). */
  hfovDeg: z.number().gt(0).lt(180),
  /** Turns/mirrors of each crop averaged (1..8). */
  views: z.number().int().min(1).max(8),
});

const pointSchema = z.strictObject({ x: finite, y: finite });
const channelSchema = z.strictObject({ id: z.number().int(), polygon: z.array(pointSchema).min(3), expectedDice: z.number().int().min(1) });

export const profileSchema = z.strictObject({
  format: z.literal(PROFILE_FORMAT),
  version: z.literal(PROFILE_VERSION),
  name: z.string().min(1),
  /** ISO 8601 time the profile was made (supplied by whoever makes it). */
  createdAt: z.iso.datetime({ offset: true }),
  /** `sha256:<hex>` of the profile's content (everything but name, createdAt, training.source and hash). */
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  /** Which face the camera sees: `bottom` through a clear platform (reads are mapped to the top face). */
  face: z.enum(['top', 'bottom']),
  /** Die type ids the profile reads (`red`, `green`). */
  dice: z.array(z.string().min(1)).min(1),
  /** Class names: `<die>-<symbol>` and `cocked`. */
  classes: z.array(z.string().min(1)).min(1),
  classifier: z.discriminatedUnion('kind', [ringClassifierSchema, learnedClassifierSchema]),
  /**
   * Reads with a lower confidence are declined. A learned profile: its head's threshold, or without a head the
   * lowest of the network's per-class thresholds (each class keeps its own).
   */
  rejectionThreshold: z.number().min(0).max(1),
  validation: validationSchema,
  /**
   * Dice read by `calibrate --check` on labelled images the profile never saw, added up over every check kept in it
   * (`checkedDice.ts`). When present, a session's misread bounds come from these alone: they are fresh, where a fitted
   * head's or fine-tuned network's held-back dice also set its thresholds. Absent: from `validation`.
   */
  checked: z.strictObject({ images: count, confusion: confusionSchema }).optional(),
  training: z.strictObject({
    source: z.string(),
    samples: count,
    /** Samples that could not be measured (no die found in the crop) and were left out. */
    unusable: count,
    perClass: z.record(z.string(), count),
  }),
  /** Channel regions of the rig, when calibrated on it. */
  channels: z.array(channelSchema).optional(),
  /** The empty-platform reference image saved beside the profile. */
  reference: z.strictObject({ file: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).optional(),
  /** Across-corners size of a die in the rig's frames, pixels. */
  dieSizePx: z.number().positive().optional(),
});

export type CalibrationProfile = z.infer<typeof profileSchema>;
export type RingClassifier = z.infer<typeof ringClassifierSchema>;
export type LearnedClassifier = z.infer<typeof learnedClassifierSchema>;
export type ProfileIconModel = RingClassifier['models'][number];
/** A profile read by the ring-harmonics classifier, or by the learned network. */
export type RingProfile = CalibrationProfile & { readonly classifier: RingClassifier };
export type LearnedProfile = CalibrationProfile & { readonly classifier: LearnedClassifier };

export function isLearnedProfile(p: CalibrationProfile): p is LearnedProfile {
  return p.classifier.kind === LEARNED_CLASSIFIER_KIND;
}
export type ProfileValidation = CalibrationProfile['validation'];
/** A profile before its hash is computed. */
export type UnhashedProfile = Omit<CalibrationProfile, 'hash'>;

/** A class name split into die type and symbol, or the shared `cocked` class. */
export type ParsedClass = { readonly die: string; readonly symbol: string } | typeof COCKED_CLASS;

/** Splits `red-hit` into die `red` and symbol `hit`; `cocked` stays itself; anything else is undefined. */
export function parseClassName(name: string): ParsedClass | undefined {
  if (name === COCKED_CLASS) return COCKED_CLASS;
  const i = name.indexOf('-');
  if (i <= 0 || i === name.length - 1) return undefined;
  return { die: name.slice(0, i), symbol: name.slice(i + 1) };
}

/** JSON with object keys sorted at every level: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The content hash: SHA-256 of the canonical JSON of everything except the
 * name, the creation time, the free-text note of where the samples came from
 * (a folder path differs between machines) and the hash itself. Two profiles
 * that read alike and were validated alike have the same hash whatever they are
 * called, where and when they were made.
 */
export function profileHash(profile: UnhashedProfile | CalibrationProfile): string {
  const { name: _name, createdAt: _createdAt, hash: _hash, training, ...rest } = profile as CalibrationProfile;
  const { source: _source, ...counts } = training;
  return `sha256:${createHash('sha256').update(canonicalJson({ ...rest, training: counts })).digest('hex')}`;
}

/** Adds the content hash. */
export function sealProfile(profile: UnhashedProfile): CalibrationProfile {
  return { ...profile, hash: profileHash(profile) };
}

/** The short form of the hash used in classifier versions (first 12 hex digits). */
export function shortHash(profile: Pick<CalibrationProfile, 'hash'>): string {
  return profile.hash.slice('sha256:'.length, 'sha256:'.length + 12);
}

/** Problems beyond the schema: shapes that must agree with each other. Empty when the profile is consistent. */
export function profileProblems(p: CalibrationProfile): string[] {
  const problems: string[] = [];
  const dice = new Set(p.dice);
  for (const c of p.classes) {
    const parsed = parseClassName(c);
    if (parsed === undefined) problems.push(`class "${c}" is neither "cocked" nor "<die>-<symbol>"`);
    else if (parsed !== COCKED_CLASS && !dice.has(parsed.die)) problems.push(`class "${c}" names die "${parsed.die}", which is not in "dice"`);
  }
  if (p.classifier.kind === D8_CLASSIFIER_KIND) problems.push(...ringProblems(p.classifier, p, dice));
  else problems.push(...learnedProblems(p.classifier, p));
  const { rows, columns, counts } = p.validation.confusion;
  if (counts.length !== rows.length || counts.some((r) => r.length !== columns.length)) problems.push('validation.confusion: counts do not match rows and columns');
  const checked = p.checked?.confusion;
  if (checked && (checked.counts.length !== checked.rows.length || checked.counts.some((r) => r.length !== checked.columns.length))) problems.push('checked.confusion: counts do not match rows and columns');
  if (profileHash(p) !== p.hash) problems.push('hash: the content does not match its hash (the profile was changed after it was made; recalibrate instead of editing it)');
  return problems;
}

function ringProblems(classifier: RingClassifier, p: CalibrationProfile, dice: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const dim = iconFeatureLength(classifier.geometry);
  for (const d of p.dice) {
    if (!classifier.colours.some((c) => c.die === d)) problems.push(`die "${d}" has no colour in classifier.colours`);
    if (!classifier.models.some((m) => m.die === d)) problems.push(`die "${d}" has no icon model in classifier.models`);
  }
  classifier.models.forEach((m, i) => {
    const at = `classifier.models[${i}]`;
    if (!dice.has(m.die)) problems.push(`${at}: die "${m.die}" is not in "dice"`);
    if (m.center.length !== dim) problems.push(`${at}.center has ${m.center.length} values; the geometry gives ${dim} features`);
    if (m.scale.length !== dim) problems.push(`${at}.scale has ${m.scale.length} values; the geometry gives ${dim} features`);
    if (m.centroids.length !== m.classes.length) problems.push(`${at} has ${m.centroids.length} centroids for ${m.classes.length} classes`);
    m.centroids.forEach((c, k) => {
      if (c.length !== dim) problems.push(`${at}.centroids[${k}] has ${c.length} values; the geometry gives ${dim} features`);
    });
    for (const c of m.classes) if (!p.classes.includes(c)) problems.push(`${at}: class "${c}" is not in "classes"`);
  });
  if (classifier.radiusRange[0] > classifier.radiusRange[1]) problems.push('classifier.radiusRange: the smallest size is above the largest');
  return problems;
}

function learnedProblems(classifier: LearnedClassifier, p: CalibrationProfile): string[] {
  const problems: string[] = [];
  if (p.face !== 'top') problems.push('a learned profile reads the top face (face must be "top")');
  const model = shippedLearnedModelByVersion(classifier.model);
  if (classifier.tuned !== undefined) {
    if (classifier.head !== undefined) problems.push('classifier has both a fitted head and a fine-tuned network; a profile reads with one');
    if (model !== undefined) problems.push(...tunedProblems(model, classifier.tuned).map((p) => `classifier.tuned ${p}`));
  } else if (classifier.confirm !== undefined) problems.push('classifier.confirm confirms a fine-tuned network, and classifier.tuned is missing');
  if (classifier.confirmRule !== undefined && classifier.confirm === undefined) problems.push('classifier.confirmRule is a rule for classifier.confirm, which is missing');
  const byLevels = classifier.blankWitnessIconAt !== undefined || classifier.blankWitnessTiltAt !== undefined;
  if ((classifier.blankWitnessAt !== undefined || byLevels) && classifier.head === undefined && classifier.tuned === undefined) {
    const field = classifier.blankWitnessAt !== undefined ? 'classifier.blankWitnessAt' : 'classifier.blankWitnessIconAt/TiltAt';
    problems.push(`${field} has the shipped network witness the blanks of a fitted head or fine-tuned network, and the profile has neither`);
  }
  if (classifier.blankWitnessTiltAt !== undefined && classifier.blankWitnessIconAt === undefined) {
    problems.push('classifier.blankWitnessTiltAt needs classifier.blankWitnessIconAt: the witness doubts a blank by an icon named, and older profiles by tilt as well');
  }
  if (byLevels && classifier.blankWitnessAt !== undefined) problems.push('classifier.blankWitnessAt and classifier.blankWitnessIconAt/TiltAt are two witness rules; a profile has one');
  const check = model?.cockedCheck;
  if (classifier.outlineAt !== undefined && model !== undefined) {
    if (check === undefined) problems.push(`classifier.outlineAt is a threshold for the outline check, and ${model.version} has none`);
    else if (classifier.outlineAt < check.at) problems.push(`classifier.outlineAt ${classifier.outlineAt} is under the shipped outline check's ${check.at}; calibration only raises it`);
  }
  const dim = model?.spec.convs[model.spec.convs.length - 1]?.out;
  for (const [key, head] of [['head', classifier.head], ['confirm', classifier.confirm]] as const) {
    if (head === undefined) continue;
    if (head.bias.length !== head.classes.length) problems.push(`classifier.${key} has ${head.bias.length} biases for ${head.classes.length} classes`);
    if (dim !== undefined && head.weights.length !== head.classes.length * dim) problems.push(`classifier.${key} has ${head.weights.length} weights; ${head.classes.length} classes of the network's ${dim} features need ${head.classes.length * dim}`);
    for (const c of head.classes) if (parseClassName(c) === undefined) problems.push(`classifier.${key}: class "${c}" is neither "cocked" nor "<die>-<symbol>"`);
  }
  return problems;
}

/** The shipped learned network of that version, if this dicerig ships it. */
export function shippedLearnedModelByVersion(version: string): LearnedModel | undefined {
  return Object.values(shippedLearnedModels).find((m) => m.version === version);
}

/**
 * Checks untrusted data (parsed JSON) as a profile: the schema, then the
 * consistency checks and the hash. Throws an InputError naming the first
 * problem (and how many others there are).
 */
export function parseProfile(value: unknown, file?: string): CalibrationProfile {
  const where = file !== undefined ? { file } : {};
  if (value !== null && typeof value === 'object' && 'version' in value && (value as { version: unknown }).version !== PROFILE_VERSION) {
    throw new InputError(`calibration profile version ${String((value as { version: unknown }).version)} is not supported (this dicerig reads version ${PROFILE_VERSION}); recalibrate.`, where);
  }
  const parsed = profileSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const first = issues[0];
    const path = first ? first.path.map(String).join('.') : '';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    throw new InputError(`not a valid calibration profile: ${path ? `${path}: ` : ''}${first?.message ?? 'unknown problem'}${more}.`, where);
  }
  const classifier = parsed.data.classifier;
  if (classifier.kind === LEARNED_CLASSIFIER_KIND && shippedLearnedModelByVersion(classifier.model) === undefined) {
    const shipped = Object.values(shippedLearnedModels).map((m) => m.version);
    const again = recalibrateCommand({ dice: parsed.data.dice, classifier, training: parsed.data.training }, file) ?? 'dicerig calibrate --from-labelled DIR';
    throw new InputError(`the calibration profile was made for the learned network ${classifier.model}, which this dicerig does not ship (it ships ${shipped.join(', ')}); calibrate again on the dice it was made from (${again}).`, where);
  }
  const problems = profileProblems(parsed.data);
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    throw new InputError(`calibration profile is inconsistent: ${problems[0]}${more}.`, where);
  }
  return parsed.data;
}
