import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { parseDieDefinitions } from '../../src/dice/definition.js';
import { getDieType } from '../../src/dice/catalogue.js';
import { checkConfigMeaning } from '../../src/session/configMeaning.js';
import { readerFamily } from '../../src/session/setup.js';

const [skull] = parseDieDefinitions('- { id: skull, faces: [{id: s1, symbol: skull}, {id: s2, symbol: skull}, {id: b, symbol: blank}, {id: c, symbol: crit}], opposite: {s1: s2, b: c} }\n', 'mine.yaml');

/** The problems the config check finds in `value`, as `key: problem`. */
function configProblems(value: unknown): string[] {
  const out: string[] = [];
  checkConfigMeaning(value, (path, problem) => out.push(`${path.join('.')}: ${problem}`));
  return out;
}

/** The problem readerFamily refuses these dice with. */
function familyRefusal(types: Parameters<typeof readerFamily>[0]): string {
  try {
    readerFamily(types);
  } catch (e) {
    if (e instanceof ConfigError) return e.problem;
    throw e;
  }
  throw new Error('readerFamily read these dice');
}

describe('which dice a session can read, said in one wording', () => {
  it('refuses a die no reader reads with the same words when a config is checked and when a session, plan or campaign asks', () => {
    const words = familyRefusal([skull as NonNullable<typeof skull>]);
    expect(configProblems({ dieTypes: [skull], dice: [{ label: 'S', type: 'skull' }] })).toEqual([`dice.0.type: ${words}`]);
    expect(words).toBe('no reader can read a "skull" die (faces s1, s2, b, c): a session reads D6-faced dice, whose six faces are "1" to "6" (d6, d3, direction, or a die of your own that extends d6), and X-Wing red and green dice');
  });

  it('reads D6-faced dice with pips and X-Wing dice with a profile, never both in one session', () => {
    expect(readerFamily([getDieType('d6'), getDieType('d3')])).toBe('pips');
    expect(readerFamily([getDieType('red'), getDieType('green')])).toBe('xwing');
    expect(familyRefusal([getDieType('d6'), getDieType('red')])).toBe('one session reads one kind of dice: D6-faced dice (pips) or X-Wing dice (icons), not both; run them as two sessions');
  });
});
