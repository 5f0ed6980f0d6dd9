import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { importThrows, type ImportThrows } from '../../../src/rolllog/importThrows.js';
import { mergeLogs } from '../../../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';
import type { ParsedLog } from '../../../src/rolllog/types.js';
import { thrown } from '../../support/thrown.js';

const layouts = [{ typeId: 'red', symbols: ['hit', 'crit', 'focus', 'blank'] }];

const parse = (text: string, file = 'rolls.csv') => parseRollLog(text, { file, layouts, rollDetails: true });
const errorOf = (fn: () => unknown): InputError => thrown(fn, InputError);

/** Each throw as "label#row" entries, with the channel, confidence and classifier each roll keeps. */
function described(logs: readonly ParsedLog[]) {
  const merged = mergeLogs(logs);
  const plan = importThrows(logs, merged) as ImportThrows;
  const throws: string[][] = [];
  for (let t = 0; t < plan.count; t++) {
    const entries: string[] = [];
    for (let e = plan.starts[t] as number; e < (plan.starts[t + 1] as number); e++) {
      const channel = plan.channels?.[e] ?? -1;
      const confidence = plan.confidences?.[e] ?? NaN;
      const classifier = plan.classifiers?.[e] ?? -1;
      entries.push(`${merged[plan.die[e] as number]?.label}#${plan.roll[e]} ch${channel} ${confidence} ${classifier < 0 ? '-' : plan.classifierNames[classifier]}`);
    }
    throws.push(entries);
  }
  return { fromFiles: plan.fromFiles, throws };
}

describe('the throws an import stores', () => {
  it("are the file's throws, numbered in order without gaps, each roll in the file's order with its channel, confidence and classifier", () => {
    // Sorted by die, as a spreadsheet might: B sat out throw 4, and throw 5 (re-tumbled) is not there at all.
    const log = parse(
      'throw,die,face,channel,confidence,classifier\n' +
        '3,A,hit-1,0,0.9,v1\n4,A,crit,0,0.95,v1\n6,A,blank-1,0,,\n' +
        '3,B,focus-1,1,0.8,v2\n6,B,hit-2,1,1,v1\n',
    );
    expect(described([log])).toEqual({
      fromFiles: true,
      throws: [
        ['A#0 ch0 0.9 v1', 'B#0 ch1 0.8 v2'],
        ['A#1 ch0 0.95 v1'],
        ['A#2 ch0 NaN -', 'B#1 ch1 1 v1'],
      ],
    });
  });

  it("keeps an unresolved roll in its throw, counted among its die's rows", () => {
    const log = parse('throw,die,face,channel,resolution\n1,A,hit-1,0,read\n1,B,,1,unresolved\n2,B,crit,1,read\n');
    expect(described([log]).throws).toEqual([['A#0 ch0 NaN -', 'B#0 ch1 NaN -'], ['B#1 ch1 NaN -']]);
  });

  it("puts each file's throws after the previous file's, a die found in both keeping its rolls in file order", () => {
    const first = parse('throw,die,face\n1,A,hit-1\n2,A,crit\n', 'day1.csv');
    const second = parse('throw,die,face\n1,A,blank-1\n1,B,hit-1\n', 'day2.csv');
    expect(described([first, second]).throws).toEqual([['A#0 ch-1 NaN -'], ['A#1 ch-1 NaN -'], ['A#2 ch-1 NaN -', 'B#0 ch-1 NaN -']]);
  });

  it('reads JSON Lines alike, its fields named as an export names them', () => {
    const log = parse(
      '{"kind":"manifest"}\n' +
        '{"throw":2,"die":"A","face":"hit-1","channel":3,"confidence":0.5,"classifier":"v9"}\n' +
        '{"throw":2,"die":"B","face":"crit","channel":null,"confidence":null,"classifier":null}\n' +
        '{"throw":7,"die":"A","face":"crit","channel":3}\n',
      'rolls.jsonl',
    );
    expect(described([log]).throws).toEqual([['A#0 ch3 0.5 v9', 'B#0 ch-1 NaN -'], ['A#1 ch3 NaN -']]);
  });

  it('without a throw column, holds the i-th roll of every die in throw i, as an import always did, keeping each roll its channel', () => {
    const log = parse('die,face,channel\nA,hit-1,0\nA,crit,0\nB,blank-1,1\n');
    expect(described([log])).toEqual({ fromFiles: false, throws: [['A#0 ch0 NaN -', 'B#0 ch1 NaN -'], ['A#1 ch0 NaN -']] });
  });

  it('is left to the old way when the files give nothing beyond each die\'s rolls', () => {
    const log = parse('die,face\nA,hit-1\nB,crit\n');
    expect(importThrows([log], mergeLogs([log]))).toBeUndefined();
  });

  it('refuses files of which some give throws and some do not, naming the one that does not', () => {
    const first = parse('throw,die,face\n1,A,hit-1\n', 'export.csv');
    const second = parse('die,face,channel\nA,crit,0\n', 'plain.csv');
    const e = errorOf(() => importThrows([first, second], mergeLogs([first, second])));
    expect(e.message).toBe('plain.csv: gives no throw for its rolls, but export.csv does: an import keeps the throws its files give, and could not place this file\'s rolls among them; import the files as separate sessions');
  });
});

describe('reading the details an import keeps', () => {
  it('refuses a channel that is not a whole number from 0, a confidence outside 0 to 1, naming file, line and column', () => {
    expect(errorOf(() => parse('die,face,channel\nA,hit-1,0\nA,hit-1,-1\n')).message).toBe(
      'rolls.csv, line 3, column "channel": the channel "-1" is not a whole number from 0 (0, 1, 2...): a channel is the rig\'s place the die was read in',
    );
    expect(errorOf(() => parse('die,face,channel\nA,hit-1,99999999999\n')).message).toMatch(/^rolls.csv, line 2, column "channel": the channel "99999999999" is not/);
    expect(errorOf(() => parse('die,face,confidence\nA,hit-1,1.01\n')).message).toBe(
      'rolls.csv, line 2, column "confidence": the confidence "1.01" is not a number from 0 to 1: it is the reader\'s confidence in its read',
    );
    expect(errorOf(() => parse('{"die":"A","face":"crit","confidence":"x"}\n', 'r.jsonl')).message).toMatch(/^r.jsonl, line 1, column "confidence": the confidence "x" is not/);
    expect(errorOf(() => parse('{"die":"A","face":"crit","channel":1.5}\n', 'r.jsonl')).message).toMatch(/^r.jsonl, line 1, column "channel": the channel "1.5" is not/);
  });

  it("refuses a die's throws going backwards, and one die twice in a throw", () => {
    expect(errorOf(() => parse('throw,die,face\n2,A,hit-1\n1,B,hit-1\n1,A,crit\n')).message).toBe(
      'rolls.csv, line 4, column "throw": die "A" rolls in throw 1 here, after throw 2 on line 2: a die\'s throws must rise row by row (the order it rolled in), so that which rolls were thrown together is kept',
    );
    expect(errorOf(() => parse('throw,die,face\n2,A,hit-1\n2,A,crit\n')).message).toMatch(/^rolls.csv, line 3: die "A" rolls in throw 2 here and on line 2/);
  });

  it('refuses JSON Lines rows of which some give their throw and some do not', () => {
    expect(errorOf(() => parse('{"throw":1,"die":"A","face":"crit"}\n{"die":"A","face":"crit"}\n', 'r.jsonl')).message).toMatch(/^r.jsonl, line 2: the row gives no "throw"/);
    expect(errorOf(() => parse('{"die":"A","face":"crit"}\n{"throw":2,"die":"A","face":"crit"}\n', 'r.jsonl')).message).toMatch(/^r.jsonl, line 2: this row gives its throw, but line 1 gives none/);
  });

  it('leaves those columns unread for an analysis, which judges outcomes only', () => {
    const log = parseRollLog('throw,die,face,channel,confidence\n2,A,hit-1,left,high\n1,A,crit,left,high\n', { file: 'rolls.csv', layouts });
    expect(log.details).toBeUndefined();
    expect(log.rows).toBe(2);
  });
});
