import { describe, expect, it } from 'vitest';
import { jsonErrorPosition } from '../../../src/dice/jsonErrorPosition.js';

/** JSON.parse's own position, where its message gives one. */
function v8Position(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    const at = /at position (\d+)/.exec((e as Error).message);
    return at ? Number(at[1]) : -1;
  }
}

describe('jsonErrorPosition', () => {
  it('finds the offset JSON.parse names, wherever JSON.parse names one', () => {
    for (const text of ['{"a":1,}', '{"a" 1}', '[1,2', '"abc', '{"a":1}x', '{a:1}', '[01]', '["\\x"]', '[1.]', '[-]', '[1e]', '[1e+x]', '{"a":"b\u0001"}']) {
      const own = v8Position(text);
      expect(own, text).not.toBe(-1);
      expect(jsonErrorPosition(text), text).toBe(own);
    }
  });

  it('points at the unexpected character where JSON.parse names none, and finds nothing wrong in JSON', () => {
    expect(jsonErrorPosition('[1,\n  ]')).toBe(6);
    expect(jsonErrorPosition('[1,,2]')).toBe(3);
    expect(jsonErrorPosition('{"a":tru}')).toBe(8);
    expect(jsonErrorPosition('{"a": [1, {"b": "\\u00e9"}], "c": -1.5e3, "d": [true, false, null]}')).toBeUndefined();
  });
});
