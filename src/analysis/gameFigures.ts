import type { DieType } from '../dice/types.js';

/**
 * Game-level figures a player feels, per built-in die type: the rate of a group
 * of symbols (e.g. hit+crit), whose expected value follows from the die's own
 * odds (1/2, 3/4, 3/8, 5/8 for stock X-Wing dice), never typed in here.
 */
export interface GameFigure {
  readonly name: string;
  readonly description: string;
  readonly symbols: readonly string[];
}

const FIGURES: Record<string, readonly GameFigure[]> = {
  red: [
    { name: 'damage', description: 'hits + crits per die', symbols: ['hit', 'crit'] },
    { name: 'damage-with-focus', description: 'hits + crits per die with a focus token', symbols: ['hit', 'crit', 'focus'] },
  ],
  green: [
    { name: 'evades', description: 'evades per die', symbols: ['evade'] },
    { name: 'evades-with-focus', description: 'evades per die with a focus token', symbols: ['evade', 'focus'] },
  ],
  d6: [
    { name: '4+', description: 'successes on 4+', symbols: ['4', '5', '6'] },
    { name: '6s', description: 'sixes', symbols: ['6'] },
  ],
};

export function gameFiguresFor(die: DieType): readonly GameFigure[] {
  return (FIGURES[die.id] ?? []).filter((f) => f.symbols.every((s) => die.symbols.includes(s)));
}

/** Expected rate of a figure: the sum of its symbols' probabilities. */
export function expectedRate(die: DieType, figure: GameFigure): number {
  let p = 0;
  die.faces.forEach((face, i) => {
    if (figure.symbols.includes(face.symbol)) p += die.faceProbabilities[i] as number;
  });
  return p;
}
