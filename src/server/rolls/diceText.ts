/**
 * Dice written as a person types them in chat: "3 red", "2 green", "2d6",
 * "d3", "1 direction", several groups joined by "," or "and".
 */
import type { DieKind } from './dieKinds.js';

export interface DiceGroup {
  readonly kind: DieKind;
  readonly count: number;
}

const WORDS: Readonly<Record<string, DieKind>> = {
  red: 'red',
  reds: 'red',
  attack: 'red',
  green: 'green',
  greens: 'green',
  defense: 'green',
  d6: 'd6',
  d3: 'd3',
  direction: 'direction',
  directions: 'direction',
};

/** Most dice one request may ask for. */
export const MAX_DICE = 30;

/** Parses dice text; throws an Error whose message names the part it could not read. */
export function parseDiceText(text: string): DiceGroup[] {
  const parts = text
    .trim()
    .toLowerCase()
    .split(/\s*(?:,|\band\b|\+)\s*/)
    .filter((p) => p !== '');
  if (parts.length === 0) throw new Error('no dice given (try "3 red" or "2d6")');
  const groups: DiceGroup[] = [];
  for (const part of parts) {
    // Any number of digits: "100 red" is too many dice, not unreadable.
    const m = /^(\d*)\s*(d6|d3)$/.exec(part) ?? /^(\d+)?\s*([a-z0-9]+)$/.exec(part);
    const kind = m ? WORDS[m[2] as string] : undefined;
    if (!m || kind === undefined) throw new Error(`cannot read "${part}" as dice (try "3 red", "2 green", "2d6", "d3" or "1 direction")`);
    const count = m[1] === undefined || m[1] === '' ? 1 : Number(m[1]);
    if (count < 1) throw new Error(`"${part}" asks for no dice`);
    if (count > MAX_DICE) throw new Error(`${(m[1] as string).replace(/^0+/, '')} dice is more than the ${MAX_DICE} one roll may ask for`);
    // One group per kind: "1 red, 2 red" is 3 red, or each group's result would count the other's dice too.
    const same = groups.findIndex((g) => g.kind === kind);
    if (same >= 0) groups[same] = { kind, count: (groups[same] as DiceGroup).count + count };
    else groups.push({ kind, count });
  }
  const total = groups.reduce((n, g) => n + g.count, 0);
  if (total > MAX_DICE) throw new Error(`${total} dice is more than the ${MAX_DICE} one roll may ask for`);
  return groups;
}

/** Back to text: "3 red", "2d6". */
export function formatDice(groups: readonly DiceGroup[]): string {
  return groups.map((g) => (g.kind === 'd6' || g.kind === 'd3' ? `${g.count}${g.kind}` : `${g.count} ${g.kind}`)).join(', ');
}
