import { describe, expect, it } from 'vitest';
import { builtInDice } from '../../../src/dice/catalogue.js';
import { InputError } from '../../../src/core/errors.js';
import { mergeLogs } from '../../../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';
import { tokensOf } from '../../../src/rolllog/types.js';
import { unresolvedByLabel } from '../../../src/rolllog/unresolvedByLabel.js';

const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
const parse = (file: string, text: string) => parseRollLog(text, { file, layouts });

describe('rows of rolls the reader left unresolved', () => {
  it('keeps each unresolved CSV row in its place among the die’s read rolls, with no outcome of its own', () => {
    const log = parse(
      'x.csv',
      'throw,die,type,face,symbol,resolution\n1,A,d6,1,1,read\n1,B,d6,,,unresolved\n2,A,d6,,,unresolved\n2,B,d6,6,6,read\n3,A,d6,2,2,\n3,B,d6,,,UNRESOLVED\n',
    );
    const [a, b] = log.dice;
    expect(log.rows).toBe(6);
    expect(tokensOf(a!)).toEqual(['1', '2']);
    expect(a!.unresolvedAt).toEqual([1]);
    expect(tokensOf(b!)).toEqual(['6']);
    expect(b!.unresolvedAt).toEqual([0, 1]);
    expect(unresolvedByLabel([log], new Map([['B', 5]]))).toEqual(new Map([['A', 1], ['B', 7]]));
  });

  it('refuses an unresolved row that gives a face, and a resolution it does not know, naming file, line and column', () => {
    const withFace = () => parse('x.csv', 'die,type,face,resolution\nA,d6,1,read\nA,d6,4,unresolved\n');
    expect(withFace).toThrow(InputError);
    expect(withFace).toThrow(/x\.csv, line 3, column "face": a roll marked unresolved \(the reader could not read it\) has no face or symbol, found "4"/);
    expect(() => parse('x.csv', 'die,type,face,resolution\nA,d6,1,maybe\n')).toThrow(/x\.csv, line 2, column "resolution": the resolution "maybe" is not "read", "reviewed" or "unresolved"/);
    expect(() => parse('x.jsonl', '{"die":"A","type":"d6","face":"1","resolution":"unresolved"}\n')).toThrow(/x\.jsonl, line 1: a roll marked unresolved .* found "1"/);
    // A read row still needs its face.
    expect(() => parse('x.csv', 'die,type,face,resolution\nA,d6,,read\n')).toThrow(/line 2, column "face": the face is empty/);
  });

  it('lets a JSON Lines die begin with unresolved rolls and take its level from its first read row', () => {
    const log = parse(
      'x.jsonl',
      ['{"kind":"manifest","session":{"simulated":true}}', '{"throw":1,"die":"A","type":"d6","symbol":null,"resolution":"unresolved"}', '{"throw":2,"die":"A","type":"d6","face":"3","symbol":"3"}', '{"throw":3,"die":"A","type":"d6","face":"5"}'].join('\n'),
    );
    const [a] = log.dice;
    expect(a!.level).toBe('face');
    expect(tokensOf(a!)).toEqual(['3', '5']);
    expect(a!.unresolvedAt).toEqual([0]);
    // A die rolled twice in one throw is refused for unresolved rows too.
    expect(() => parse('y.jsonl', '{"throw":1,"die":"A","type":"d6","face":"3"}\n{"throw":1,"die":"A","type":"d6","resolution":"unresolved"}\n')).toThrow(/die "A" rolls in throw 1 here and on line 1/);
  });

  it('places the unresolved rolls of a die found in several files after the read rolls of the files before', () => {
    const day1 = parse('day1.csv', 'die,type,face,resolution\nA,d6,1,read\nA,d6,,unresolved\nA,d6,2,read\n');
    const day2 = parse('day2.csv', 'die,type,face,resolution\nA,d6,,unresolved\nA,d6,4,read\nB,d6,,unresolved\n');
    const [a, b] = mergeLogs([day1, day2]);
    expect(tokensOf(a!)).toEqual(['1', '2', '4']);
    expect(a!.unresolvedAt).toEqual([1, 2]);
    // The parsed file is left as it was.
    expect(day1.dice[0]!.unresolvedAt).toEqual([1]);
    expect(tokensOf(b!)).toEqual([]);
    expect(b!.unresolvedAt).toEqual([0]);
  });
});
