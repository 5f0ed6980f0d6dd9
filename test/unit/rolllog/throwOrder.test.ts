import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';
import { tokensOf, type ParsedLog } from '../../../src/rolllog/types.js';
import { thrown } from '../../support/thrown.js';

const layouts = [{ typeId: 'd6', symbols: ['1', '2', '3', '4', '5', '6'] }];
const parse = (text: string, file = 'rolls.csv'): ParsedLog => parseRollLog(text, { file, layouts });

/** Each die as its rolls in order, unresolved ones as "?", labelled ones with their reviewer. */
function shown(log: ParsedLog): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const die of log.dice) {
    const tokens = tokensOf(die).map((t, i) => {
      const r = die.reviewed?.find((x) => x.roll === i);
      return r !== undefined ? `${t}(by ${r.reviewer})` : t;
    });
    const rows: string[] = [];
    let j = 0;
    const at = die.unresolvedAt ?? [];
    tokens.forEach((t, i) => {
      for (; j < at.length && (at[j] as number) <= i; j++) rows.push('?');
      rows.push(t);
    });
    for (; j < at.length; j++) rows.push('?');
    out[die.label] = rows;
  }
  return out;
}

/** The CSV rows of `rows` ([throw, die, face, resolution, reviewer]) under an export's header. */
const csv = (rows: readonly (readonly string[])[]): string => `throw,die,type,face,resolution,reviewer\n${rows.map((r) => `${r[0]},${r[1]},d6,${r[2]},${r[3] ?? 'read'},${r[4] ?? ''}`).join('\n')}\n`;

const IN_ORDER = [
  ['1', 'A', '6'],
  ['1', 'B', '2'],
  ['2', 'A', '', 'unresolved'],
  ['2', 'B', '5', 'reviewed', 'ann'],
  ['3', 'A', '1'],
  ['3', 'B', '', 'unresolved'],
  ['4', 'A', '3', 'reviewed', 'bo'],
  ['4', 'B', '2'],
  ['5', 'A', '6'],
  ['6', 'A', '', 'unresolved'],
] as const;

describe("a log whose rows are not in the order of their throws", () => {
  it('gives each die its rolls in throw order, unresolved and labelled rolls in their places, and says which die and where', () => {
    const inOrder = parse(csv(IN_ORDER));
    // Sorted by face, as a spreadsheet would: unresolved rows (no face) first.
    const sorted = [...IN_ORDER].sort((a, b) => a[2].localeCompare(b[2]) || a[1].localeCompare(b[1]));
    const log = parse(csv(sorted), 'sorted.csv');
    expect(shown(log)).toEqual(shown(inOrder));
    expect(shown(log)).toEqual({ A: ['6', '?', '1', '3(by bo)', '6', '?'], B: ['2', '5(by ann)', '?', '2'] });
    expect(inOrder.reordered).toBeUndefined();
    // Sorted: A's unresolved throws 2 and 6, then B's 3, then A 1 (throw 3): A goes back on line 5.
    expect(log.reordered).toEqual([
      { label: 'A', line: 5, throwNo: 3, after: 6 },
      { label: 'B', line: 6, throwNo: 1, after: 3 },
    ]);
  });

  it('reads JSON Lines the same way', () => {
    const json = (rows: readonly (readonly [number, string, number])[]) => rows.map(([t, d, f]) => JSON.stringify({ throw: t, die: d, type: 'd6', face: String(f) })).join('\n');
    const log = parse(json([[3, 'A', 1], [1, 'A', 4], [2, 'A', 2]]), 'rolls.jsonl');
    expect(shown(log)).toEqual({ A: ['4', '2', '1'] });
    expect(log.reordered).toEqual([{ label: 'A', line: 2, throwNo: 1, after: 3 }]);
  });

  it('refuses a die out of order some of whose rows give no throw, naming the die and the line it went back on', () => {
    const text = ['{"throw":3,"die":"A","face":"1"}', '{"die":"A","face":"2"}', '{"throw":1,"die":"A","face":"4"}'].join('\n');
    const e = thrown(() => parseRollLog(text, { file: 'mixed.jsonl', layouts, typeId: 'd6' }), InputError);
    expect(e.message).toBe('mixed.jsonl, line 3: die "A" rolls in throw 1 here, after throw 3, and 1 of its rows give no throw: its rolls\' order cannot be known; give every row its throw');
  });

  it('leaves a die whose throws rise (with gaps, dice sitting some out) as it is', () => {
    const log = parse(csv([['2', 'A', '1'], ['5', 'A', '2'], ['5', 'B', '3'], ['9', 'A', '4']]));
    expect(log.reordered).toBeUndefined();
    expect(shown(log)).toEqual({ A: ['1', '2', '4'], B: ['3'] });
  });
});
