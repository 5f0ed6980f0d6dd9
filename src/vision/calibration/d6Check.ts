/**
 * A D6 check: how the pip reader a session reads D6-faced dice with reads the
 * user's own labelled dice. D6s need no calibration to be read, but their
 * verdicts must allow for the reader's misreads (`stats/VERDICTS.md`), and
 * nothing measured those: a session without a check says "misreads assumed 0".
 * Nothing is fitted to these dice, so all of them are new to the reader and
 * all of them bound its misreads, as the dice `calibrate --check` adds to an
 * X-Wing profile do; faces learned on them (`head`) read each die only as
 * learned without its image (`d6CrossFit.ts`), which keeps that so. The confusion is in the faces a session records: the face
 * on top, mapped from the face seen when the camera sees the bottom one.
 *
 * Pure: the file's schema, its content hash and the misreads it bounds.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { formatCount } from '../../core/format.js';
import { InputError } from '../../core/errors.js';
import { measuredMisreads, type MisreadAssumption } from '../../stats/misreadRate.js';
import { canonicalJson, confusionSchema, shortHash } from './profile.js';
import { confusionCockedReads, confusionMisreadCounts } from './profileMisreads.js';
import { d6FaceHeadId, d6FaceHeadSchema } from './d6FaceHead.js';

export const D6_CHECK_FORMAT = 'dicerig-d6-check';
export const D6_CHECK_VERSION = 1;

const d6CheckSchema = z.strictObject({
  format: z.literal(D6_CHECK_FORMAT),
  version: z.literal(D6_CHECK_VERSION),
  name: z.string().min(1),
  createdAt: z.string().min(1),
  /** The reader's `classifierVersion`: a session reading with another one cannot rely on this check. */
  reader: z.string().min(1),
  /** The face the camera saw: `bottom` through a clear platform (each read mapped to the face on top). */
  face: z.enum(['top', 'bottom']),
  /** Where the labelled dice came from (free text, left out of the hash). */
  source: z.string(),
  images: z.number().int().positive(),
  /**
   * A check read from whole frames, as a session reads them: the die side (pixels) it located and judged them with.
   * The blob checks it measured depend on it, so a session reading with another die size is refused. Absent: crops.
   */
  dieSizePx: z.number().positive().optional(),
  /** Rows: the labelled face ids ('1'..'6', and `cocked`); columns: the face read, `declined` and `cocked`. */
  confusion: confusionSchema,
  /**
   * Faces learned on these dice (`calibrate --learn-faces`): the pip counter's second opinion a session reads with.
   * The confusion counts each image's dice read with a head fitted on the other images' (`d6CrossFit.ts`).
   */
  head: d6FaceHeadSchema.optional(),
  /** `sha256:<hex>` of everything but name, createdAt, source and hash. */
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
});

export type D6Check = z.infer<typeof d6CheckSchema>;
export type UnhashedD6Check = Omit<D6Check, 'hash'>;

function d6CheckHash(check: UnhashedD6Check | D6Check): string {
  const { name: _name, createdAt: _createdAt, source: _source, hash: _hash, ...rest } = check as D6Check;
  return `sha256:${createHash('sha256').update(canonicalJson(rest)).digest('hex')}`;
}

/** Adds the content hash. */
export function sealD6Check(check: UnhashedD6Check): D6Check {
  return { ...check, hash: d6CheckHash(check) };
}

/** Checks parsed JSON as a D6 check; an InputError names the first problem. */
export function parseD6Check(value: unknown, file?: string): D6Check {
  const where = file !== undefined ? { file } : {};
  const format = value !== null && typeof value === 'object' ? (value as { format?: unknown }).format : undefined;
  if (format !== D6_CHECK_FORMAT) {
    throw new InputError(`not a D6 check (format ${format === undefined ? 'missing' : JSON.stringify(format)}): D6-faced dice take the file "dicerig calibrate --die d6 --from-labelled DIR" writes, not an X-Wing calibration profile.`, where);
  }
  const version = (value as { version?: unknown }).version;
  if (version !== D6_CHECK_VERSION) {
    throw new InputError(`D6 check version ${version === undefined ? '(missing)' : JSON.stringify(version)} is not supported (this dicerig reads version ${D6_CHECK_VERSION}); make the check again (dicerig calibrate --die d6).`, where);
  }
  const parsed = d6CheckSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const path = first ? first.path.map(String).join('.') : '';
    throw new InputError(`not a valid D6 check: ${path ? `${path}: ` : ''}${first?.message ?? 'unknown problem'}.`, where);
  }
  const { confusion } = parsed.data;
  if (confusion.counts.length !== confusion.rows.length || confusion.counts.some((r) => r.length !== confusion.columns.length)) {
    throw new InputError('D6 check is inconsistent: confusion counts do not match its rows and columns.', where);
  }
  const { head, reader } = parsed.data;
  if (head !== undefined && !reader.endsWith(`+${d6FaceHeadId(head)}`)) {
    throw new InputError(`D6 check is inconsistent: its reader ${reader} is not the one its learned faces (${d6FaceHeadId(head)}) make.`, where);
  }
  if (d6CheckHash(parsed.data) !== parsed.data.hash) {
    throw new InputError('D6 check is inconsistent: the content does not match its hash (it was changed after it was made; make the check again instead of editing it).', where);
  }
  return parsed.data;
}

/** The misreads a session reading D6-faced dice (faces `labels`, '1'..'6') allows for with this check; refused when a face has too few dice to bound. */
export function d6CheckMisreadAssumption(check: D6Check, labels: readonly string[]): MisreadAssumption {
  const source = `D6 check "${check.name}" (${shortHash(check)}, dice on ${formatCount(check.images)} images)`;
  return measuredMisreads(source, labels, confusionMisreadCounts(check.confusion, labels), 0.95, confusionCockedReads(check.confusion));
}

/**
 * Whether a check that read its frames with dice `checkDieSizePx` across measured a reader reading with `dieSizePx`:
 * the blob checks (and learned faces) judge a die by its size, which may differ by 2 % (a die measured in a frame).
 */
export function sameD6DieSize(checkDieSizePx: number, dieSizePx: number): boolean {
  return Math.abs(checkDieSizePx - dieSizePx) <= 0.02 * dieSizePx;
}

/** One face's flat dice the check's reader declined: a session keeps each such roll unresolved. */
export interface FaceDeclines {
  readonly face: string;
  readonly dice: number;
  readonly declined: number;
}

/** A face declined this often holds its dice's verdicts on a person's labels: the check says so. */
export const HEAVY_DECLINE = 0.2;

/** Each face's dice in the check (read, declined or called cocked) and how many were declined, in `labels` order. */
export function d6CheckDeclines(check: D6Check, labels: readonly string[]): FaceDeclines[] {
  const { rows, columns, counts } = check.confusion;
  const declinedAt = columns.indexOf('declined');
  return labels.map((face) => {
    const row = counts[rows.indexOf(face)] ?? [];
    return { face, dice: row.reduce((a, b) => a + b, 0), declined: declinedAt >= 0 ? (row[declinedAt] ?? 0) : 0 };
  });
}
