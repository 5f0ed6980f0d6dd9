import { describe, expect, it } from 'vitest';
import { allDice, d6Die } from '../../../src/dice/catalogue.js';
import { parseDieDefinitions } from '../../../src/dice/definition.js';
import { withSessionDice } from '../../../src/dice/sessionDice.js';

const SKULL = `id: skull
faces:
  - { id: s, symbol: skull, probability: 1/2 }
  - { id: b, symbol: blank, probability: 1/4 }
  - { id: c, symbol: crit, probability: 1/8 }
  - { id: x, symbol: blank, probability: 1/8 }
opposite: { s: b, c: x }
`;

const [skull] = parseDieDefinitions(SKULL, 'mine.yaml');
const [skullNew] = parseDieDefinitions(SKULL.replace('symbol: crit', 'symbol: critical'), 'new.yaml');
const [d6Override] = parseDieDefinitions('overrides: d6\nopposite: {"1": "2", "3": "4", "5": "6"}\n', 'ov.yaml');

/** A stored session's config rolling `types`, keeping the definitions `own`. */
const session = (name: string, types: string[], own: unknown[] = []) => ({ name, config: { dice: types.map((type, i) => ({ label: `D${i}`, type })), ...(own.length > 0 ? { dieTypes: own } : {}) } });

describe('withSessionDice', () => {
  it("refuses a dice file that defines a session's own die otherwise, naming the die, the session and the file", () => {
    expect(() => withSessionDice(allDice([skullNew!]), [session('session 2', ['skull'], [skull])], 'new.yaml')).toThrow(
      'session 2 defines die "skull" otherwise than new.yaml does: a session is judged by the definition it ran with; judge its rolls apart from the file\'s, or give no --dice-file',
    );
    // The same definition in the file is no conflict, and the session's own comes first.
    expect(withSessionDice(allDice([skull!]), [session('session 2', ['skull'], [skull])], 'mine.yaml')[0]).toEqual(skull);
  });

  it("refuses a session of the built-in d6 beside a session that stored an override of the d6's layout, whichever comes first", () => {
    const plain = session('session 1', ['d6']);
    const overridden = session('session 3', ['d6'], [d6Override]);
    expect(() => withSessionDice(allDice(), [plain, overridden])).toThrow('session 3 defines die "d6" otherwise than the built-in one session 1 rolled: judge their rolls apart');
    expect(() => withSessionDice(allDice(), [overridden, plain])).toThrow('session 1 rolled die "d6" as built in, and session 3 defines it otherwise: judge their rolls apart');
    // Two sessions of the built-in d6 are one definition.
    expect(withSessionDice(allDice(), [plain, session('session 2', ['d6'])]).find((d) => d.id === 'd6')).toEqual(d6Die);
  });
});
