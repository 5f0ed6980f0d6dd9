/** What the overlay, dashboard and chat reply show of a viewer's name (`by`). */
import { describe, expect, it } from 'vitest';
import { parseRollRequest } from '../../../src/server/rolls/request.js';
import { shownName } from '../../../src/server/rolls/shownName.js';

describe('a viewer name', () => {
  it('loses the bidirectional overrides that would turn the rest of its line around, and keeps right-to-left letters', () => {
    expect(shownName('\u202enimda')).toBe('nimda');
    expect(shownName('a\u2066b\u2069c\u200f\u061c')).toBe('abc');
    expect(shownName('שלום')).toBe('שלום');
  });

  it('has its control characters, C1 ones too, turned into spaces, and is cut to 40 characters', () => {
    expect(shownName('a\nb\u0007c\u009bd')).toBe('a b c d');
    expect(shownName(` ${'x'.repeat(50)}`)).toBe('x'.repeat(40));
    expect(shownName('\u202e\n')).toBe('');
  });

  it('asked through the roll API is stored as shown, and refused when nothing showable is left', () => {
    expect(parseRollRequest({ dice: '1 red', by: '\u202eevil\u202c one' })).toMatchObject({ by: 'evil one' });
    expect(() => parseRollRequest({ dice: '1 red', by: '\u202e\u202c' })).toThrow(/by/);
  });
});
