import { z } from 'zod';
import { InputError } from '../core/errors.js';
import type { ExportSeal } from './exportSeal.js';
import type { DieRecord, RigRecord, SessionCounts, SessionOrigin, SessionState } from './records.js';

/**
 * The session metadata that travels with an export: the first line of a JSON
 * Lines export (`{"kind":"manifest",...}`, which the log reader skips), a
 * `FILE.manifest.json` beside a CSV written to a file, or a leading
 * `# dicerig-manifest {...}` comment line of a CSV written to standard output.
 */
export interface ExportManifest {
  readonly kind: 'manifest';
  readonly format: 'dicerig-export';
  /** 2 since exports are sealed (`seal`), 3 since each row carries its throw's time; version 1 (no seal) is read as before, as unsealed. */
  readonly formatVersion: 1 | 2 | 3;
  readonly dicerig: string;
  /** ISO 8601 time of the export. */
  readonly exportedAt: string;
  readonly session: {
    readonly id: number;
    readonly name: string | null;
    readonly origin: SessionOrigin;
    readonly state: SessionState;
    readonly simulated: boolean;
    readonly softwareVersion: string;
    readonly startedAt: number;
    readonly endedAt: number | null;
    readonly config: unknown;
    readonly headHash: string;
    /** The throw the head hash is of: write both down to check the store later (`dicerig verify --expect HASH`). */
    readonly throwCount: number;
    /** The head of the session's review chain and how many reviews it is after ('' and 0: none), for `verify --expect`; absent in exports made before review chains had heads. */
    readonly reviewsHead?: string;
    readonly reviewCount?: number;
  };
  readonly rig: RigRecord | null;
  readonly dice: readonly DieRecord[];
  /** Null when exported from a damaged file that could not count them. */
  readonly counts: SessionCounts | null;
  /** Rolls a damaged file could not give (`export --allow-unverified`): the export lacks those of this session among them. */
  readonly unreadableRolls?: number;
  /** The verdicts the session made and stored, as is (absent when it stored none). */
  readonly verdicts?: unknown;
  /**
   * A fleet session's campaign finding (`CampaignSessionFinding`): its campaign found the rig it ran on biased, so
   * every reader shows its dice RIG_SUSPECT, as the fleet does. Absent otherwise.
   */
  readonly campaignFinding?: unknown;
  /** Declined rolls nobody labelled: rows of their own (`resolution` `unresolved`); null when a damaged file could not list them. */
  readonly unresolvedRolls: number | null;
  /** Of the exported rolls, those a person labelled (`resolution` `reviewed`); absent in exports made before it was counted. */
  readonly reviewedRolls?: number;
  /** Rows in the export with a face: the counted rolls (ok throws, read or labelled, not cocked). */
  readonly exportedRolls: number;
  readonly columns: readonly string[];
  /** Digests of the rows and of the fields above (`exportSeal.ts`): `dicerig verify FILE` checks the file against them. */
  readonly seal?: ExportSeal;
}

/** The prefix of the manifest comment line of a CSV written to standard output. */
export const CSV_MANIFEST_PREFIX = '# dicerig-manifest ';

/** What import needs from a manifest; the rest is kept as is. */
const manifestSchema = z.looseObject({
  kind: z.literal('manifest'),
  session: z.looseObject({ simulated: z.boolean(), name: z.string().nullable().optional(), id: z.number().optional() }),
});

export type ImportedManifest = z.infer<typeof manifestSchema>;

/** Validates a parsed manifest; the error names the file and line. */
export function checkManifest(value: unknown, file: string, line: number): ImportedManifest {
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`the export manifest is not valid: ${issue ? `${issue.path.join('.') || 'manifest'}: ${issue.message}` : 'unknown problem'}`, { file, line });
  }
  return parsed.data;
}

/**
 * The manifest embedded in a log's text, if any: a JSON Lines first line with
 * `"kind":"manifest"`, or a CSV comment line starting with `# dicerig-manifest `.
 */
export function embeddedManifest(text: string, file: string): ImportedManifest | undefined {
  const lines = text.split('\n', 50);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/^\uFEFF/, '').trim();
    if (line === '') continue;
    if (line.startsWith(CSV_MANIFEST_PREFIX.trim())) return checkManifest(parseJson(line.slice(CSV_MANIFEST_PREFIX.trim().length), file, i + 1), file, i + 1);
    if (line.startsWith('#')) continue;
    if (!line.startsWith('{')) return undefined;
    const value = parseJson(line, file, i + 1);
    return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'manifest' ? checkManifest(value, file, i + 1) : undefined;
  }
  return undefined;
}

function parseJson(text: string, file: string, line: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new InputError(`not valid JSON (${(e as Error).message})`, { file, line });
  }
}
