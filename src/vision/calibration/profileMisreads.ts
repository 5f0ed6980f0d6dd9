/**
 * How often a calibration profile's reader put another roll in place of each
 * symbol of a die: on the dice `calibrate --check` added to it (`checked`) when
 * it has any, else on its validation dice (its confusion matrix): the counts
 * behind the misread bounds a session's verdicts allow for
 * (`stats/misreadRate.ts`). A die read as any other class, of its own colour or
 * not, is misread. So is a flat die called cocked: a session throws it again,
 * and its roll is replaced by another, as a misread replaces it; which faces
 * are called cocked is the reader's choice, so re-throwing them is a
 * face-dependent selection the bound must cover. A die declined as unreadable
 * is neither: a session keeps it as an unresolved roll in its place. A die
 * that lay cocked and was read as a face is counted apart, among all the dice:
 * it adds to every face's bound.
 */
import { formatCount } from '../../core/format.js';
import { measuredMisreads, type CockedReads, type FaceReads, type MisreadAssumption } from '../../stats/misreadRate.js';
import { COCKED_CLASS, type CalibrationProfile } from './profile.js';
import { COCKED_COLUMN, DECLINED_COLUMN } from '../evaluate.js';
import { shortHash } from './profile.js';
import type { Confusion } from './checkedDice.js';

/** Columns that are no face read: a die declined as unreadable, and one called cocked. */
const NOT_READ = new Set([DECLINED_COLUMN, COCKED_COLUMN]);

/**
 * Per confusion row named in `rows`: dice of it read or called cocked (the rolls a session counts or throws again),
 * and how many of them were read as another class or called cocked.
 */
export function confusionMisreadCounts(confusion: Confusion, rows: readonly string[]): FaceReads[] {
  const { columns, counts } = confusion;
  return rows.map((name) => {
    const row = counts[confusion.rows.indexOf(name)];
    if (row === undefined) return { read: 0, misread: 0 };
    let read = 0;
    let correct = 0;
    columns.forEach((c, j) => {
      if (c === DECLINED_COLUMN) return;
      const n = row[j] ?? 0;
      read += n;
      if (c === name) correct += n;
    });
    return { read, misread: read - correct };
  });
}

/** All the dice a confusion holds, those that lay cocked (row `cocked`), and those of them read as a face. */
export function confusionCockedReads(confusion: Confusion): CockedReads {
  const { rows, columns, counts } = confusion;
  const dice = counts.reduce((n, row) => n + row.reduce((a, b) => a + b, 0), 0);
  const row = counts[rows.indexOf(COCKED_CLASS)] ?? [];
  const readAsFace = columns.reduce((n, c, j) => n + (NOT_READ.has(c) ? 0 : (row[j] ?? 0)), 0);
  return { dice, cocked: row.reduce((a, b) => a + b, 0), readAsFace };
}

/**
 * Per symbol of die type `die` (in `symbols` order): held-back dice of it read or called cocked (the rolls a session
 * counts or throws again), and how many of them were read as another class or called cocked.
 */
export function profileMisreadCounts(profile: Pick<CalibrationProfile, 'validation' | 'checked'>, die: string, symbols: readonly string[]): FaceReads[] {
  return confusionMisreadCounts((profile.checked ?? profile.validation).confusion, symbols.map((symbol) => `${die}-${symbol}`));
}

/** All the dice the same confusion holds, those that lay cocked (row `cocked`), and those of them read as a face. */
export function profileCockedReads(profile: Pick<CalibrationProfile, 'validation' | 'checked'>): CockedReads {
  return confusionCockedReads((profile.checked ?? profile.validation).confusion);
}

/**
 * The misreads a session reading dice of type `die` with this profile allows for, named by the profile, its hash and
 * which of its dice measured them (sessions and plans alike); refused when a symbol has too few reads to bound.
 */
export function profileMisreadAssumption(profile: Pick<CalibrationProfile, 'name' | 'hash' | 'validation' | 'checked'>, die: string, symbols: readonly string[]): MisreadAssumption {
  const dice = profile.checked ? `dice checked on ${formatCount(profile.checked.images)} new images` : 'validation dice';
  return measuredMisreads(`calibration profile "${profile.name}" (${shortHash(profile)}, ${dice})`, symbols, profileMisreadCounts(profile, die, symbols), 0.95, profileCockedReads(profile));
}
