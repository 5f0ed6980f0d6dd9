import { describe, expect, it } from 'vitest';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';
import { mergeLogs } from '../../../src/rolllog/mergeLogs.js';
import { InputError } from '../../../src/core/errors.js';
import { tokensOf, type DieLog } from '../../../src/rolllog/types.js';
import { thrown } from '../../support/thrown.js';

/** A die log with its rolls decoded, for readable expectations. */
function decoded(d: DieLog | undefined) {
  return d && { label: d.label, level: d.level, typeId: d.typeId, tokens: tokensOf(d) };
}

const layouts = [
  { typeId: 'red', symbols: ['hit', 'crit', 'focus', 'blank'] },
  { typeId: 'green', symbols: ['evade', 'focus', 'blank'] },
];

function parse(text: string, extra: { typeId?: string; label?: string } = {}) {
  return parseRollLog(text, { file: 'rolls.csv', layouts, ...extra });
}

const errorOf = (fn: () => unknown): InputError => thrown(fn, InputError);

describe('parseRollLog', () => {
  it('reads a CSV with die, type and face columns into per-die token columns in order', () => {
    const log = parse('die,type,face\nA,red,hit-1\nB,green,evade-2\nA,red,crit\n');
    expect(log.format).toBe('csv');
    expect(log.rows).toBe(3);
    const a = log.dice.find((d) => d.label === 'A');
    expect(decoded(a)).toMatchObject({ level: 'face', typeId: 'red', tokens: ['hit-1', 'crit'] });
    expect(a?.firstSeen.get('crit')).toEqual({ file: 'rolls.csv', line: 4 });
  });

  it('accepts semicolons, tabs, CRLF line ends, a byte-order mark and quoted fields', () => {
    const log = parse('\ufeffDie;Symbol\r\n"die ""7""";hit\r\n"die ""7""";focus\r\n');
    expect(log.dice).toHaveLength(1);
    expect(decoded(log.dice[0])).toMatchObject({ label: 'die "7"', level: 'symbol', tokens: ['hit', 'focus'] });
    const tabbed = parse('die\tresult\nX\t3\nX\t6\n');
    expect(decoded(tabbed.dice[0])?.tokens).toEqual(['3', '6']);
  });

  it('mixes quoted and plain rows, skips blank and # comment lines, trims spaces, and counts lines from the file start', () => {
    const log = parse('# exported by hand\n\ndie , face\n"A,1", hit-1\nB, crit \n\n# pause\n"A,1",blank-2\nB,hti\n');
    expect(log.dice.map(decoded)).toEqual([
      { label: 'A,1', level: 'face', typeId: undefined, tokens: ['hit-1', 'blank-2'] },
      { label: 'B', level: 'face', typeId: undefined, tokens: ['crit', 'hti'] },
    ]);
    expect(log.dice[1]?.firstSeen.get('hti')).toEqual({ file: 'rolls.csv', line: 9 });
  });

  it('labels a file without a die column by its file name', () => {
    const log = parseRollLog('symbol\nhit\nblank\n', { file: '/data/red-07.csv', layouts });
    expect(log.dice[0]?.label).toBe('red-07');
  });

  it('reads the one-hot layout of published auto-roller results and infers the die from its columns', () => {
    const text = 'File,blank,crit,focus,hit\nimg0001.jpg,0,0,0,1\nimg0002.jpg,1,0,0,0\nimg0003.jpg,0,1,0,0\n';
    const log = parseRollLog(text, { file: 'die12.csv', layouts });
    expect(log.format).toBe('one-hot');
    expect(decoded(log.dice[0])).toMatchObject({ label: 'die12', typeId: 'red', level: 'symbol', tokens: ['hit', 'blank', 'crit'] });
    const green = parseRollLog('File,blank,evade,focus\na,0,1,0\n', { file: 'g.csv', layouts });
    expect(green.dice[0]?.typeId).toBe('green');
  });

  it('rejects a one-hot row with two symbols marked, naming the line', () => {
    const e = errorOf(() => parse('File,blank,crit,focus,hit\na,0,0,0,1\nb,1,0,0,1\n'));
    expect(e.message).toBe('rolls.csv, line 3: more than one symbol is marked 1 (blank and hit); a one-hot row marks exactly one');
  });

  it('rejects a one-hot row with nothing marked or a value other than 0 and 1', () => {
    expect(errorOf(() => parse('File,blank,evade,focus\na,0,0,0\n')).message).toMatch(/line 2: no symbol is marked 1/);
    expect(errorOf(() => parse('File,blank,evade,focus\na,0,2,0\n')).message).toMatch(/line 2, column "evade": expected 0 or 1/);
  });

  it('rejects one-hot columns that match no known die, listing the known layouts', () => {
    expect(errorOf(() => parse('File,blank,hit\na,0,1\n')).message).toMatch(/not the symbols of a known die \(red: hit,crit,focus,blank; green/);
  });

  it('reads JSON Lines with the same field names and skips an export manifest', () => {
    const text = '{"kind":"manifest","session":3}\n{"die":"A","type":"red","face":"hit-2"}\n\n{"die":"A","type":"red","face":"blank-1"}\n';
    const log = parseRollLog(text, { file: 'rolls.jsonl', layouts });
    expect(log.format).toBe('jsonl');
    expect(decoded(log.dice[0])).toMatchObject({ label: 'A', level: 'face', tokens: ['hit-2', 'blank-1'] });
    expect(log.dice[0]?.firstSeen.get('blank-1')?.line).toBe(4);
  });

  it('refuses a JSON Lines die that is null, true, an object or an array, naming the line, and takes numbers as written', () => {
    const jsonl = (row: string) => parseRollLog(`{"die":"A","face":"1","type":"d6"}\n${row}\n`, { file: 'n.jsonl', layouts });
    expect(errorOf(() => jsonl('{"die":null,"face":"1","type":"d6"}')).message).toBe('n.jsonl, line 2: the die label is empty (null)');
    expect(errorOf(() => jsonl('{"die":true,"face":"1"}')).message).toBe('n.jsonl, line 2: "die" must be text or a number, found true');
    expect(errorOf(() => jsonl('{"label":{"a":1},"face":"1"}')).message).toBe('n.jsonl, line 2: "label" must be text or a number, found an object');
    expect(errorOf(() => jsonl('{"die":"B","face":["1"]}')).message).toBe('n.jsonl, line 2: "face" must be text or a number, found an array');
    expect(errorOf(() => jsonl('{"die":"B","symbol":false}')).message).toBe('n.jsonl, line 2: "symbol" must be text or a number, found false');
    expect(errorOf(() => jsonl('{"die":"B","face":"1","type":7.5e999}')).message).toBe('n.jsonl, line 2: "type" must be text or a number, found a number too large');
    const numbers = jsonl('{"die":7,"face":6,"type":"D6"}');
    expect(decoded(numbers.dice[1])).toMatchObject({ label: '7', level: 'face', typeId: 'd6', tokens: ['6'] });
  });

  it('reads a JSON Lines row whose face is null by its symbol, and one whose type is null or empty as of no type', () => {
    const log = parseRollLog('{"die":"A","face":null,"symbol":"hit"}\n{"die":"A","face":null,"symbol":"crit","type":null}\n{"die":"A","symbol":"blank","type":""}\n', {
      file: 's.jsonl',
      layouts,
      typeId: 'red',
    });
    expect(decoded(log.dice[0])).toMatchObject({ level: 'symbol', typeId: 'red', tokens: ['hit', 'crit', 'blank'] });
    expect(errorOf(() => parseRollLog('{"die":"A","face":null}\n', { file: 's.jsonl', layouts })).message).toBe('s.jsonl, line 1: the row has no "face" or "symbol"');
  });

  it('names the file and line of malformed JSON', () => {
    expect(errorOf(() => parseRollLog('{"die":"A","face":"x"}\n{"die":', { file: 'r.jsonl', layouts })).message).toMatch(/^r\.jsonl, line 2: not valid JSON/);
  });

  it('rejects a row with the wrong number of fields, an empty outcome, or a header without an outcome column', () => {
    expect(errorOf(() => parse('die,face\nA,hit-1,extra\n')).message).toBe('rolls.csv, line 2: expected 2 fields as in the header, found 3');
    expect(errorOf(() => parse('die,face\nA,\n')).message).toBe('rolls.csv, line 2, column "face": the face is empty');
    expect(errorOf(() => parse('die,when\nA,today\n')).message).toMatch(/line 1: the header has no face or symbol column \(found: die, when\)/);
  });

  it('rejects an empty file and a header with no rolls', () => {
    expect(errorOf(() => parse('')).message).toBe('rolls.csv: the file is empty: no rolls to read');
    expect(errorOf(() => parse('die,face\n')).message).toBe('rolls.csv: the file has a header but no rolls');
  });

  it('refuses a die rolling twice in one throw, naming the die, the throw and both lines, in CSV and JSON Lines', () => {
    expect(errorOf(() => parse('throw,die,face\n1,A,hit-1\n1,B,crit\n2,A,blank-1\n1,A,hit-1\n')).message).toBe(
      'rolls.csv, line 5: die "A" rolls in throw 1 here and on line 2: a die rolls once a throw, so one of the rows is a copy (was the log appended to itself?)',
    );
    const jsonl = '{"throw":1,"die":"A","face":"hit-1"}\n{"throw":2,"die":"A","face":"crit"}\n{"throw":2,"die":"A","face":"crit"}\n';
    expect(errorOf(() => parseRollLog(jsonl, { file: 'r.jsonl', layouts })).message).toMatch(/^r\.jsonl, line 3: die "A" rolls in throw 2 here and on line 2:/);
  });

  it("accepts throws out of order (taking each die's rolls in throw order) and several dice in one throw, and logs without a throw column", () => {
    const log = parse('throw,die,face\n3,A,hit-1\n3,B,crit\n1,A,crit\n2,A,blank-1\n2,B,crit\n');
    expect(decoded(log.dice[0])?.tokens).toEqual(['crit', 'blank-1', 'hit-1']);
    expect(log.rows).toBe(5);
    expect(parse('die,face\nA,hit-1\nA,hit-1\n').rows).toBe(2);
  });

  it('refuses a throw that is not a positive integer, naming the line and the value', () => {
    expect(errorOf(() => parse('throw,die,face\n1,A,hit-1\nx,A,crit\n')).message).toBe('rolls.csv, line 3, column "throw": the throw "x" is not a positive integer (1, 2, 3...)');
    expect(errorOf(() => parse('throw,die,face\n-5,A,crit\n')).message).toBe('rolls.csv, line 2, column "throw": the throw "-5" is not a positive integer (1, 2, 3...)');
    expect(errorOf(() => parse('throw,die,face\n0,A,crit\n')).message).toContain('the throw "0" is not a positive integer');
    expect(errorOf(() => parse('throw,die,face\n1.5,A,crit\n')).message).toContain('the throw "1.5" is not a positive integer');
    expect(errorOf(() => parse('throw,die,face\n ,A,crit\n')).message).toBe(
      'rolls.csv, line 2, column "throw": the throw is empty: a row of a log with a throw column names its throw, a positive integer',
    );
    expect(errorOf(() => parseRollLog('{"throw":-1,"die":"A","face":"crit"}\n', { file: 'r.jsonl', layouts })).message).toBe(
      'r.jsonl, line 1: the throw "-1" is not a positive integer (1, 2, 3...)',
    );
    expect(errorOf(() => parseRollLog('{"throw":null,"die":"A","face":"crit"}\n', { file: 'r.jsonl', layouts })).message).toContain('the throw "null" is not');
    expect(parseRollLog('{"throw":"7","die":"A","face":"crit"}\n', { file: 'r.jsonl', layouts }).rows).toBe(1);
  });

  it('rejects a die whose type changes between rows', () => {
    expect(errorOf(() => parse('die,type,symbol\nA,red,hit\nA,green,evade\n')).message).toBe(
      'rolls.csv, line 3: die "A" is type "green" here but "red" on earlier rows',
    );
  });
});

describe('mergeLogs', () => {
  it('appends the rolls of a die found in several files in the order the files were given', () => {
    const day1 = parseRollLog('die,symbol\nA,hit\n', { file: 'day1.csv', layouts });
    const day2 = parseRollLog('die,symbol\nA,crit\nB,blank\n', { file: 'day2.csv', layouts });
    const dice = mergeLogs([day1, day2]);
    expect(dice.map((d) => [d.label, tokensOf(d)])).toEqual([
      ['A', ['hit', 'crit']],
      ['B', ['blank']],
    ]);
    expect([...(dice[0]?.files ?? [])]).toEqual(['day1.csv', 'day2.csv']);
    expect(tokensOf(day1.dice[0] as DieLog)).toEqual(['hit']);
  });

  it('refuses to merge a die logged by face in one file and by symbol in another', () => {
    const a = parseRollLog('die,face\nA,hit-1\n', { file: 'a.csv', layouts });
    const b = parseRollLog('die,symbol\nA,hit\n', { file: 'b.csv', layouts });
    expect(() => mergeLogs([a, b])).toThrow(/die "A" is logged by symbol here but by face in a\.csv/);
  });
});
