import { InputError } from '../core/errors.js';
import type { DieType, Face } from './types.js';

export { faceIndexById, oppositeIndex, symbolIndexOfFace, symbolProbabilities } from './indexing.js';

/**
 * The built-in dice. Face ids are stored in logs and calibration profiles, so
 * they never change once published; add new faces or dice, never rename.
 */

function uniform(n: number): number[] {
  return Array.from({ length: n }, () => 1 / n);
}

/** The six D6 faces with natural values 1..6 and symbol chosen per value. */
function d6Faces(symbolOf: (value: number) => string): Face[] {
  return [1, 2, 3, 4, 5, 6].map((value) => ({ id: String(value), symbol: symbolOf(value), value }));
}

/** Standard D6 layout: opposite faces sum to 7. */
const D6_OPPOSITE: Readonly<Record<string, string>> = { '1': '6', '6': '1', '2': '5', '5': '2', '3': '4', '4': '3' };

function pairs(...p: [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [a, b] of p) {
    out[a] = b;
    out[b] = a;
  }
  return out;
}

const LAYOUT_NOTE =
  'The physical opposite-face layout of X-Wing d8s is not documented anywhere we could check; the pairs listed here are an assumption. ' +
  'If your dice differ, define a die with `overrides: <id>` and your own `opposite` map in a dice file (see examples/dice/).';

export const redAttackDie: DieType = {
  id: 'red',
  name: 'X-Wing red attack die (d8)',
  faces: [
    { id: 'hit-1', symbol: 'hit' },
    { id: 'hit-2', symbol: 'hit' },
    { id: 'hit-3', symbol: 'hit' },
    { id: 'crit', symbol: 'crit' },
    { id: 'focus-1', symbol: 'focus' },
    { id: 'focus-2', symbol: 'focus' },
    { id: 'blank-1', symbol: 'blank' },
    { id: 'blank-2', symbol: 'blank' },
  ],
  symbols: ['hit', 'crit', 'focus', 'blank'],
  faceProbabilities: uniform(8),
  // Assumed layout: each hit faces a focus or blank, the crit faces a blank.
  opposite: pairs(['hit-1', 'focus-1'], ['hit-2', 'focus-2'], ['hit-3', 'blank-1'], ['crit', 'blank-2']),
  notes: `3 hit, 1 crit, 2 focus, 2 blank faces, each 1/8 (the game's published odds). ${LAYOUT_NOTE}`,
};

export const greenDefenseDie: DieType = {
  id: 'green',
  name: 'X-Wing green defense die (d8)',
  faces: [
    { id: 'evade-1', symbol: 'evade' },
    { id: 'evade-2', symbol: 'evade' },
    { id: 'evade-3', symbol: 'evade' },
    { id: 'focus-1', symbol: 'focus' },
    { id: 'focus-2', symbol: 'focus' },
    { id: 'blank-1', symbol: 'blank' },
    { id: 'blank-2', symbol: 'blank' },
    { id: 'blank-3', symbol: 'blank' },
  ],
  symbols: ['evade', 'focus', 'blank'],
  faceProbabilities: uniform(8),
  // Assumed layout: each evade faces a blank, the two focus faces face each other.
  opposite: pairs(['evade-1', 'blank-1'], ['evade-2', 'blank-2'], ['evade-3', 'blank-3'], ['focus-1', 'focus-2']),
  notes: `3 evade, 2 focus, 3 blank faces, each 1/8 (the game's published odds). ${LAYOUT_NOTE}`,
};

export const d6Die: DieType = {
  id: 'd6',
  name: 'D6 (pips)',
  faces: d6Faces(String),
  symbols: ['1', '2', '3', '4', '5', '6'],
  faceProbabilities: uniform(6),
  opposite: D6_OPPOSITE,
  notes: 'Six pip faces, each 1/6; opposite faces sum to 7.',
};

export const d3Die: DieType = {
  id: 'd3',
  name: 'D3 read from a D6',
  faces: d6Faces((v) => String(Math.ceil(v / 2))),
  symbols: ['1', '2', '3'],
  faceProbabilities: uniform(6),
  opposite: D6_OPPOSITE,
  notes:
    'A D6 halved and rounded up: 1-2 read 1, 3-4 read 2, 5-6 read 3, each 1/3. ' +
    'Faces keep the D6 ids and natural values, so a rule asking for a natural 1 or 6 reads `value`, and the die can be tested face by face like a D6.',
};

/**
 * Direction die: a D6 whose result is a direction on the table. The arrow is
 * the single pip of the 1 — the direction from the die's centre towards the
 * side showing one pip — unless the 1 is up or down (a 1 or 6 rolled); then the
 * arrow is the centre pip of the 5, read the same way. So the symbol of a face
 * says which pip carries the arrow: `one-pip` for 2..5 up, `five-centre` for 1
 * or 6 up. The angle itself is continuous and is measured by vision, not a face.
 */
export const directionDie: DieType = {
  id: 'direction',
  name: 'Direction die (a D6 read as an arrow)',
  faces: d6Faces((v) => (v === 1 || v === 6 ? 'five-centre' : 'one-pip')),
  symbols: ['one-pip', 'five-centre'],
  faceProbabilities: uniform(6),
  opposite: D6_OPPOSITE,
  notes:
    'The arrow points from the die centre towards the side showing the single pip of the 1; when a 1 or 6 is rolled ' +
    '(the 1 is up or down) it points towards the side whose centre pip is the 5 instead. Symbol = which pip gives the arrow ' +
    '(one-pip 4/6, five-centre 2/6); the direction should be uniform over the circle. Faces stay 1..6 so the die is tested like a D6.',
};

/** Every built-in die, in listing order. */
export const builtInDice: readonly DieType[] = [redAttackDie, greenDefenseDie, d6Die, d3Die, directionDie];

/**
 * The die with this id: a user-defined one from `extra` first (so a user file
 * can override a built-in's layout), then a built-in. Throws an InputError
 * naming the known ids when there is none.
 */
export function getDieType(id: string, extra: readonly DieType[] = []): DieType {
  const found = extra.find((d) => sameDieId(d.id, id)) ?? builtInDice.find((d) => sameDieId(d.id, id));
  if (found) return found;
  const known = [...new Set([...builtInDice, ...extra].map((d) => d.id))];
  throw new InputError(`unknown die "${id}"; known dice are: ${known.join(', ')}.`);
}

/** What an unknown die error adds where the command takes `--dice-file`: the one wording of it. */
export const OWN_DIE_HINT = 'a die of your own: give its dice file with --dice-file';

/** Built-ins with user overrides applied, then user dice, each id once: what `dicerig dice` lists. */
export function allDice(extra: readonly DieType[] = []): DieType[] {
  const byId = new Map(extra.map((d) => [d.id.toLowerCase(), d]));
  const merged = builtInDice.map((d) => byId.get(d.id.toLowerCase()) ?? d);
  const builtInIds = new Set(builtInDice.map((d) => d.id.toLowerCase()));
  return [...merged, ...extra.filter((d) => !builtInIds.has(d.id.toLowerCase()))];
}

/**
 * Whether two die ids name the same die. Ids compare without case: logs and options name types in any case (a log's
 * `Red` is the red die), so a user's die `Coin` must be found by a log's `coin`, and `Coin` and `coin` cannot be two dice.
 */
export function sameDieId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
