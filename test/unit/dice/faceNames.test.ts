import { describe, expect, it } from 'vitest';
import { d3Die, d6Die, directionDie, greenDefenseDie, redAttackDie } from '../../../src/dice/catalogue.js';
import { faceNames } from '../../../src/dice/faceNames.js';
import type { DieType } from '../../../src/dice/types.js';

describe('faceNames', () => {
  it("names a D3's faces with what they read, since its face 2 would read as its result 2", () => {
    expect(faceNames(d3Die)).toEqual(['face 1 (reads 1)', 'face 2 (reads 1)', 'face 3 (reads 2)', 'face 4 (reads 2)', 'face 5 (reads 3)', 'face 6 (reads 3)']);
  });

  it('keeps the face ids where no id names another symbol: X-Wing, D6 and direction dice', () => {
    for (const die of [redAttackDie, greenDefenseDie, d6Die, directionDie]) expect(faceNames(die), die.id).toEqual(die.faces.map((f) => f.id));
  });

  it("names the faces of a user's die whose face id is another face's symbol, whatever its case", () => {
    const die: DieType = {
      id: 'odd',
      name: 'odd',
      faces: [
        { id: 'A', symbol: 'b' },
        { id: 'x', symbol: 'a' },
        { id: 'y', symbol: 'b' },
      ],
      symbols: ['a', 'b'],
      faceProbabilities: [1 / 3, 1 / 3, 1 / 3],
      opposite: {},
    };
    expect(faceNames(die)).toEqual(['face A (reads b)', 'face x (reads a)', 'face y (reads b)']);
  });
});
