import { InputError } from '../core/errors.js';
import { quoteValue } from './quoteValue.js';
import type { DieOutOfOrder } from './throwsSeen.js';
import type { DieLog, ReorderedDie } from './types.js';

/**
 * Puts the rolls of each die whose rows came out of throw order (a log sorted by face or by time in a spreadsheet,
 * say) back in the order of their throw numbers, which is the order they were rolled in. The rig checks look at
 * each roll beside the one before, and the e-value is made roll by roll: taken in the rows' order, a log sorted by
 * face would show a rig that repeats faces, and a made-up run of one face. Unresolved and labelled rolls keep their
 * places among the read ones. A die some of whose rows give no throw has no order to put back: refused.
 */
export function putInThrowOrder(file: string, dice: readonly DieLog[], outOfOrder: readonly DieOutOfOrder[]): ReorderedDie[] {
  const reordered: ReorderedDie[] = [];
  for (const { die, throws, backwards } of outOfOrder) {
    const log = die as DieLog;
    if (!dice.includes(log)) continue;
    const rows = log.codes.length + (log.unresolvedAt?.length ?? 0);
    if (throws.length !== rows) {
      throw new InputError(
        `die ${quoteValue(log.label)} rolls in throw ${backwards.throwNo} here, after throw ${backwards.after}, and ${rows - throws.length} of its rows give no throw: its rolls' order cannot be known; give every row its throw`,
        { file, line: backwards.line },
      );
    }
    reorder(log, throws);
    reordered.push({ label: log.label, line: backwards.line, throwNo: backwards.throwNo, after: backwards.after });
  }
  return reordered;
}

/** Reorders one die's rows (read and unresolved, as they came) by `throws`, one per row in the rows' order. */
function reorder(log: DieLog, throws: readonly number[]): void {
  const unresolvedAt = log.unresolvedAt ?? [];
  // The rows as they came: a read roll's index (>= 0), or an unresolved one as -1. An unresolved row came after the
  // read rolls counted in its `unresolvedAt` and before the next.
  const kinds = new Int32Array(throws.length);
  let k = 0;
  let j = 0;
  for (let i = 0; i < log.codes.length; i++) {
    for (; j < unresolvedAt.length && (unresolvedAt[j] as number) <= i; j++) kinds[k++] = -1;
    kinds[k++] = i;
  }
  for (; j < unresolvedAt.length; j++) kinds[k++] = -1;
  const order = Array.from(throws.keys()).sort((a, b) => (throws[a] as number) - (throws[b] as number));
  const oldCodes = log.codes.slice();
  const newIndex = new Int32Array(oldCodes.length);
  const newUnresolvedAt: number[] = [];
  let read = 0;
  for (const row of order) {
    const was = kinds[row] as number;
    if (was < 0) newUnresolvedAt.push(read);
    else {
      log.codes[read] = oldCodes[was] as number;
      newIndex[was] = read++;
    }
  }
  if (log.unresolvedAt !== undefined) log.unresolvedAt = newUnresolvedAt;
  if (log.reviewed !== undefined) log.reviewed = log.reviewed.map((r) => ({ ...r, roll: newIndex[r.roll] as number })).sort((a, b) => a.roll - b.roll);
}
