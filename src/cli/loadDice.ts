import { allDice } from '../dice/catalogue.js';
import type { DieType } from '../dice/types.js';
import { readDieDefinitions } from '../session/diceFile.js';

export { readDieDefinitions } from '../session/diceFile.js';

/** The built-in dice plus (overridden by) the user's definitions from `file`, if given. */
export function loadDice(file?: string): DieType[] {
  return allDice(file === undefined ? [] : readDieDefinitions(file));
}
