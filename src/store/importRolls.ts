import type { DieType } from '../dice/types.js';
import type { DieRolls, LogFormat } from '../rolllog/types.js';
import type { ImportThrows } from '../rolllog/importThrows.js';
import { InputError } from '../core/errors.js';
import { isSimulatedLog } from '../rolllog/simulatedLog.js';
import { refuseImportedBefore } from './importedBefore.js';
import { refuseRollsStoredBefore } from './rollsStoredBefore.js';
import type { ImportedManifest } from './manifest.js';
import type { RollInput, SessionRecord } from './records.js';
import type { RollStore } from './rollStore.js';

/** One file an import reads, with the export manifest it carried (if any). */
export interface ImportSource {
  readonly file: string;
  readonly format: LogFormat;
  readonly rows: number;
  /** Rows marked simulated (an export's `simulated` column). */
  readonly simulatedRows?: number;
  readonly manifest?: ImportedManifest;
  /** What differs from the seal of an export changed since it was written (imported with `--allow-edited`): kept in the config. */
  readonly edited?: readonly string[];
}

export interface ImportOptions {
  /** Name of the new session. */
  readonly name?: string;
  /** When the import happened (ms since the epoch): the session's start and end and every throw's time. */
  readonly at: number;
  /** The `--die` type the logs were read with, kept in the session's config. */
  readonly fallbackType?: string;
  /** The exported session's decision settings, kept in the config so that its report and analyze judge as it did. */
  readonly settings?: { readonly alpha: number; readonly delta: number; readonly serialAlpha: number };
  /** The definitions of the dice that are not built in as they are (dice of the user's own), kept in the config as a recorded session keeps them. */
  readonly dieTypes?: readonly DieType[];
  /** The exported session's verdicts, kept as the new session's when its rolls are those they were made on. */
  readonly verdicts?: unknown;
  /**
   * Which rolls were thrown together, and each roll's channel, confidence and classifier version, when the files give
   * them (`importThrows`, with `rolls` in the order of its dice); else (or undefined) throw i holds the i-th roll of
   * every die. Asked for after the refusals above, so that a file imported before, or simulated rolls mixed with real
   * ones, is refused as such before files that disagree on their throws are.
   */
  readonly throws?: () => ImportThrows | undefined;
}

export interface ImportResult {
  readonly session: SessionRecord;
  readonly throws: number;
  /** Read rolls stored. */
  readonly rolls: number;
  /** Unresolved rolls stored (the files' rows with `resolution` `unresolved`). */
  readonly unresolved: number;
  /** Of the read rolls, those stored as labelled by a person (the files' rows with `resolution` `reviewed`). */
  readonly reviewed: number;
  readonly dice: number;
}

/**
 * Stores roll logs (already parsed and matched to die types) as a new,
 * finished session of origin `import`, in one transaction: on any error nothing
 * is written. Files that give each roll's throw (an export does) keep their throws, and each roll its channel,
 * confidence and classifier version (`ImportOptions.throws`), and each throw its time when they give it; logs that give only each die's roll order are stored
 * with throw i holding the i-th roll of every die that has one. An unresolved roll (no face) is stored as one,
 * in its place among the die's rolls; a roll a person labelled is stored as the session stored it, declined and then
 * labelled, by whom the file says (`UNNAMED_REVIEWER` when it does not). The
 * session is simulated when the files' manifests say so, or every row of a file without one is marked simulated (other
 * files count as real); files that disagree are refused, and so are files whose
 * manifests name a session the store holds the rolls of already.
 */
export function importRolls(store: RollStore, rolls: readonly DieRolls[], sources: readonly ImportSource[], options: ImportOptions): ImportResult {
  const simulated = importedSimulated(sources);
  const config = {
    imported: sources.map((s) => ({
      file: s.file,
      format: s.format,
      rows: s.rows,
      ...(s.manifest !== undefined ? { exportedSession: s.manifest.session } : {}),
      // Not the exported session's evidence: what was changed since its export, as its seal told.
      ...(s.edited !== undefined ? { edited: s.edited } : {}),
    })),
    ...(options.fallbackType !== undefined ? { die: options.fallbackType } : {}),
    ...(options.settings !== undefined ? { settings: options.settings } : {}),
    ...(options.dieTypes !== undefined && options.dieTypes.length > 0 ? { dieTypes: options.dieTypes } : {}),
  };
  return store.atomically(() => {
    refuseImportedBefore(store, sources);
    const identified = new Set(sources.filter((s) => s.manifest !== undefined).map((s) => s.file));
    refuseRollsStoredBefore(
      store,
      rolls.map((r) => {
        const file = [...r.files][0] ?? '';
        return { file, identified: [...r.files].every((f) => identified.has(f)), label: r.label, symbols: Array.from(r.symbols, (k) => r.die.symbols[k] as string) };
      }),
    );
    const session = store.createSession({
      ...(options.name !== undefined ? { name: options.name } : {}),
      origin: 'import',
      config,
      simulated,
      startedAt: options.at,
    });
    const dice = rolls.map((r) => ({
      record: store.registerDie({ label: r.label, typeId: r.die.id }),
      rolls: r,
      order: rollOrder(r),
      reviewers: new Map((r.reviewed ?? []).map((v) => [v.roll, v.reviewer])),
    }));
    const plan = options.throws?.();
    const longest = plan !== undefined ? plan.count : dice.reduce((n, d) => Math.max(n, d.order.length), 0);
    let stored = 0;
    let unresolved = 0;
    const labels: { throwIndex: number; dieId: number; faceId: string; reviewer: string }[] = [];
    /** The roll of row `k` (read and unresolved rolls counted, in order) of die `d`, with what its row gave beside its outcome. */
    const rollOf = (d: number, k: number, throwIndex: number, read: RollDetailsOf): RollInput | undefined => {
      const { record, rolls: r, order, reviewers } = dice[d] as (typeof dice)[number];
      if (k >= order.length) return undefined;
      const i = order[k] as number;
      if (i < 0) {
        // Kept unresolved, as in the session it came from: every verdict on it holds whatever it was.
        unresolved++;
        return { dieId: record.id, resolution: 'unresolved', ...read };
      }
      const symbol = r.die.symbols[r.symbols[i] as number] as string;
      const face = r.faces === undefined ? undefined : r.die.faces[r.faces[i] as number]?.id;
      stored++;
      const reviewer = reviewers.get(i);
      if (reviewer !== undefined) {
        // Recorded declined, then labelled, so the store says (and `verify` checks) that a person gave its face.
        labels.push({ throwIndex, dieId: record.id, faceId: face ?? symbol, reviewer: reviewer ?? UNNAMED_REVIEWER });
        return { dieId: record.id, resolution: 'unresolved', ...read };
      }
      return { dieId: record.id, symbol, ...(face !== undefined ? { faceId: face } : {}), ...read };
    };
    for (let t = 0; t < longest; t++) {
      const throwRolls: RollInput[] = [];
      if (plan === undefined) {
        for (let d = 0; d < dice.length; d++) {
          const roll = rollOf(d, t, t + 1, {});
          if (roll !== undefined) throwRolls.push(roll);
        }
      } else {
        for (let e = plan.starts[t] as number; e < (plan.starts[t + 1] as number); e++) {
          const roll = rollOf(plan.die[e] as number, plan.roll[e] as number, t + 1, detailsOf(plan, e));
          if (roll !== undefined) throwRolls.push(roll);
        }
      }
      // The throw's own time when the files give it (an export does), else the import's.
      const startedAt = plan?.startedAt?.[t] ?? NaN;
      const endedAt = plan?.endedAt?.[t] ?? NaN;
      const timed = !Number.isNaN(startedAt) && !Number.isNaN(endedAt);
      store.recordThrow(session.id, { startedAt: timed ? startedAt : options.at, endedAt: timed ? endedAt : options.at, status: 'ok', rolls: throwRolls });
    }
    if (labels.length > 0) {
      const rollIds = new Map(store.unresolvedRolls(session.id).map((u) => [`${u.throwIndex}:${u.dieId}`, u.rollId]));
      for (const l of labels) store.reviewRoll(session.id, { rollId: rollIds.get(`${l.throwIndex}:${l.dieId}`) as number, faceId: l.faceId, reviewer: l.reviewer, at: options.at });
    }
    const ended = store.endSession(session.id, options.at, 'finished');
    if (options.verdicts !== undefined) store.saveVerdicts(session.id, options.at, options.verdicts);
    return { session: ended, throws: longest, rolls: stored, unresolved, reviewed: labels.length, dice: dice.length };
  });
}

type RollDetailsOf = Pick<RollInput, 'channel' | 'confidence' | 'classifierVersion'>;

/** The channel, confidence and classifier version entry `e` of the plan gives (none where its row gave none). */
function detailsOf(plan: ImportThrows, e: number): RollDetailsOf {
  const channel = plan.channels?.[e] ?? -1;
  const confidence = plan.confidences?.[e] ?? NaN;
  const classifier = plan.classifiers?.[e] ?? -1;
  return {
    ...(channel >= 0 ? { channel } : {}),
    ...(Number.isNaN(confidence) ? {} : { confidence }),
    ...(classifier >= 0 ? { classifierVersion: plan.classifierNames[classifier] as string } : {}),
  };
}

/** Who labelled a roll, for a log that says it was labelled but not by whom (a review needs a name). */
export const UNNAMED_REVIEWER = 'unnamed (the imported log does not say)';

/** A die's rolls in order: the index of each read roll, -1 for each unresolved one (placed after the read rolls before it). */
function rollOrder(r: DieRolls): Int32Array {
  const at = r.unresolvedAt ?? [];
  const order = new Int32Array(r.symbols.length + at.length);
  let next = 0;
  let u = 0;
  for (let i = 0; i < order.length; i++) {
    if (u < at.length && (at[u] as number) <= next) {
      order[i] = -1;
      u++;
    } else order[i] = next++;
  }
  return order;
}

/** The simulated flag the files agree on; an InputError naming two files that disagree. */
export function importedSimulated(sources: readonly ImportSource[]): boolean {
  const flags = sources.map((s) => ({ file: s.file, simulated: isSimulatedLog(s, s.manifest?.session.simulated) }));
  const sim = flags.find((f) => f.simulated);
  const real = flags.find((f) => !f.simulated);
  if (sim !== undefined && real !== undefined) {
    throw new InputError(
      `its manifest or its rows mark the rolls as simulated, but ${real.file} holds real rolls; simulated rolls must never mix with real ones, so import them as separate sessions`,
      { file: sim.file, line: 1 },
    );
  }
  return sim !== undefined;
}
