/**
 * What every calibration shares, whatever reads the dice: the labels checked
 * against the dice they name, and a reader's reads of the held-back dice
 * turned into the profile's validation (confusion matrix, rejection rate,
 * confident errors, cocked dice read as a face).
 */
import { getDieType } from '../../dice/catalogue.js';
import type { DieType } from '../../dice/types.js';
import { InputError } from '../../core/errors.js';
import { evaluateReads } from '../evaluate.js';
import type { EvalItem } from '../evaluate.js';
import type { FaceRead } from '../faceRead.js';
import { classOfRead, mergeCockedColumn } from '../labelledEval.js';
import { COCKED_CLASS, parseClassName } from './profile.js';
import type { ProfileValidation } from './profile.js';

/** The dice a calibration reads and their classes (every face of each die, then `cocked` when labelled). */
export interface CalibrationDiceSet {
  readonly dice: readonly string[];
  readonly dieTypes: ReadonlyMap<string, DieType>;
  readonly classes: readonly string[];
}

/**
 * Checks the labels (`<die>-<symbol>` of a known die, or `cocked`) against the dice to read (default:
 * those the labels name). Throws an InputError naming the first label that cannot be.
 */
export function calibrationDice(labels: readonly string[], wanted?: readonly string[], userDieTypes: readonly DieType[] = []): CalibrationDiceSet {
  const namedDice = new Set<string>();
  for (const label of labels) {
    const parsed = parseClassName(label);
    if (parsed === undefined) throw new InputError(`class "${label}" is neither "cocked" nor "<die>-<symbol>" (e.g. red-hit, green-evade).`);
    if (parsed !== COCKED_CLASS) namedDice.add(parsed.die);
  }
  const dice = [...(wanted ?? [...namedDice].sort())];
  if (dice.length === 0) throw new InputError('no labelled samples of any die face: calibration needs labelled faces, not only cocked dice.');
  const dieTypes = new Map(dice.map((d) => [d, getDieType(d, userDieTypes)]));
  for (const label of labels) {
    const parsed = parseClassName(label);
    if (parsed === undefined || parsed === COCKED_CLASS) continue;
    const die = dieTypes.get(parsed.die);
    if (!die) throw new InputError(`class "${label}" is for die "${parsed.die}", but this profile reads ${dice.join(' and ')} dice.`);
    if (!die.symbols.includes(parsed.symbol)) throw new InputError(`class "${label}": a ${die.id} die has no "${parsed.symbol}" face (its symbols are ${die.symbols.join(', ')}).`);
  }
  const classes = [...new Set([...dice.flatMap((d) => (dieTypes.get(d) as DieType).symbols.map((s) => `${d}-${s}`)), ...(labels.includes(COCKED_CLASS) ? [COCKED_CLASS] : [])])];
  return { dice, dieTypes, classes };
}

/** Rounds to 6 significant digits: the profile stays small and its JSON text stable. */
export function round6(x: number): number {
  return Number.isFinite(x) && x !== 0 ? Number(x.toPrecision(6)) : x;
}

/** One held-back die: its image, true class and what the profile's reader made of it. */
export interface HeldBackRead {
  readonly group: string;
  readonly truth: string;
  readonly read: Pick<FaceRead, 'status' | 'symbol' | 'die' | 'confidence'>;
}

/** The profile's validation from its reader's reads of the held-back dice (`heldBack`: how they were chosen). */
export function validationOf(reads: readonly HeldBackRead[], classes: readonly string[], heldBack: string): ProfileValidation {
  const items: EvalItem[] = reads.map(({ group, truth, read }) => {
    const symbol = classOfRead(read);
    return { group, truth, read: { status: read.status, confidence: read.confidence, ...(symbol !== undefined ? { symbol } : {}) } };
  });
  const report = evaluateReads(items, classes);
  return {
    heldBack,
    samples: report.total,
    read: report.read,
    correct: report.correct,
    declined: report.declined,
    cocked: report.cocked,
    accuracy: report.read > 0 ? round6(report.accuracyAmongRead) : null,
    rejectionRate: report.total > 0 ? round6(report.declineRate) : 0,
    confidentErrors: report.errors.length,
    cockedReadAsFace: report.errors.filter((e) => e.truth === COCKED_CLASS).length,
    confusion: (({ rows, columns, counts }) => ({ rows: [...rows], columns: [...columns], counts: counts.map((r) => [...r]) }))(mergeCockedColumn(report.confusion)),
  };
}
