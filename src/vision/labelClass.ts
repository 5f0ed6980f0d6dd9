/**
 * Whether a labelled class names a face its die has: `7` for a D6 or `red-evade` for a red X-Wing die is a labelling
 * mistake, and read as ground truth it would count as a misread (or be dropped), never as the mistake it is.
 */
import { builtInDice } from '../dice/catalogue.js';
import { COCKED_LABEL, dieOfClass } from './labelledEval.js';

/** Why `className` is not a face of the die it names (undefined: it is one, or it is `cocked`, or names no die dicerig reads). */
export function notAFace(className: string): string | undefined {
  if (className === COCKED_LABEL) return undefined;
  const die = dieOfClass(className);
  const type = builtInDice.find((d) => d.id === die);
  if (type === undefined) return undefined;
  const symbol = die === 'd6' ? className : className.slice(die.length + 1);
  if (type.symbols.includes(symbol)) return undefined;
  const name = die === 'd6' ? 'a D6' : `a ${die} die`;
  return `${name} has no "${symbol}" face (its faces are ${type.symbols.join(', ')})`;
}
