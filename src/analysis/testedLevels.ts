import { isD6Faced } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';

/** A level a die's rolls are tested at: what the game reads (symbol) or the physical face. */
export type TestedLevel = 'symbol' | 'face';

/**
 * The levels analyze tests a die's log at, each one test of its multiplicity family: by symbol always, and by face
 * too when the log records faces and some of them share a symbol (for a D6 a face test would repeat the symbol test).
 * `plan` counts the same family, so its fixed-n figures are at the alpha analyze will use.
 */
export function testedLevels(die: DieType, facesLogged: boolean): readonly TestedLevel[] {
  return facesLogged && die.faces.length > die.symbols.length ? ['symbol', 'face'] : ['symbol'];
}

/**
 * The level a session counts a die's rolls at, and so judges it at: a pip reader sees which physical face is up
 * (D6-faced dice: a D3, a direction die), an icon reader only the symbol (three X-Wing hit faces look alike).
 */
export function sessionLevel(die: Pick<DieType, 'faces'>): TestedLevel {
  return isD6Faced(die) ? 'face' : 'symbol';
}
