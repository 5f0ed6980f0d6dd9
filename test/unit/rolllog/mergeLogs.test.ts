import { describe, expect, it } from 'vitest';
import { builtInDice } from '../../../src/dice/catalogue.js';
import { mergeLogs } from '../../../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';
import { tokensOf } from '../../../src/rolllog/types.js';

const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
const parse = (file: string, text: string) => parseRollLog(text, { file, layouts });

describe('mergeLogs', () => {
  it('appends a die found in several files in file order and leaves the parsed files as they were', () => {
    const day1 = parse('day1.csv', 'die,type,face\nA,d6,1\nA,d6,2\nB,d6,6\n');
    const day2 = parse('day2.csv', 'die,type,face\nA,d6,3\nA,d6,1\n');
    const [a, b] = mergeLogs([day1, day2]);
    expect(tokensOf(a!)).toEqual(['1', '2', '3', '1']);
    expect([...a!.files]).toEqual(['day1.csv', 'day2.csv']);
    expect(a!.firstSeen.get('3')).toEqual({ file: 'day2.csv', line: 2 });
    expect(tokensOf(b!)).toEqual(['6']);
    expect(tokensOf(day1.dice[0]!)).toEqual(['1', '2']);
    expect([...day1.dice[0]!.files]).toEqual(['day1.csv']);
    expect(day1.dice[0]!.firstSeen.has('3')).toBe(false);
  });

  it('passes a die found in one file on without copying its rolls (a file of 200,000 dice is not held twice)', () => {
    const only = parse('one.csv', 'die,type,face\nA,d6,1\nB,d6,2\n');
    const merged = mergeLogs([only]);
    expect(merged[0]).toBe(only.dice[0]);
    expect(merged[1]).toBe(only.dice[1]);
  });
});
