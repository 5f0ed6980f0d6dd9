import { describe, expect, it } from 'vitest';
import { resolveDieRolls } from '../../../src/analysis/dieRolls.js';
import { InputError } from '../../../src/core/errors.js';
import { builtInDice } from '../../../src/dice/catalogue.js';
import { mergeLogs } from '../../../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';
import { thrown } from '../../support/thrown.js';

const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
const parse = (text: string, file = 'f.csv') => parseRollLog(text, { file, layouts });
const resolve = (...logs: ReturnType<typeof parse>[]) => mergeLogs(logs).map((l) => resolveDieRolls(l, builtInDice));
const errorOf = (fn: () => unknown): InputError => thrown(fn, InputError);

describe('a log with both a face and a symbol column', () => {
  it('refuses a face beside a symbol its die type does not give it, naming the file and the line it was first written on', () => {
    const e = errorOf(() => resolve(parse('die,type,face,symbol\nA,red,hit-1,crit\nA,red,hit-2,crit\nA,red,hit-3,crit\nA,red,blank-1,crit\n')));
    expect(e.message).toBe('f.csv, line 2: face "hit-1" of die "A" (red) shows hit, but its symbol column says "crit"');
  });

  it('refuses the same in JSON Lines', () => {
    const text = '{"die":"A","type":"d3","face":"5","symbol":"3"}\n{"die":"A","type":"d3","face":"3","symbol":"3"}\n';
    expect(errorOf(() => resolve(parse(text, 'f.jsonl'))).message).toBe('f.jsonl, line 2: face "3" of die "A" (d3) shows 2, but its symbol column says "3"');
  });

  it('checks a die whose type is inferred from its faces as well as one whose type is named', () => {
    expect(errorOf(() => resolve(parse('die,face,symbol\nA,crit,crit\nA,focus-1,focus\nA,blank-2,hit\n'))).message).toMatch(/line 4: face "blank-2" of die "A" \(red\) shows blank/);
  });

  it('refuses one face given two symbols in one file, whatever the die, naming both lines', () => {
    const e = errorOf(() => parse('die,face,symbol\nA,hit-1,hit\nA,crit,crit\nA,hit-1,crit\n'));
    expect(e.message).toBe('f.csv, line 4: face "hit-1" of die "A" has the symbol "crit" here but "hit" on line 2; a face shows one symbol');
  });

  it('refuses one face given two symbols in two files of one die', () => {
    const a = parse('die,type,face,symbol\nA,red,hit-1,hit\n', 'a.csv');
    const b = parse('die,type,face,symbol\nA,red,crit,crit\nA,red,hit-1,crit\n', 'b.csv');
    expect(errorOf(() => resolve(a, b)).message).toBe('b.csv, line 3: face "hit-1" of die "A" has the symbol "crit" here but "hit" in a.csv line 2; a face shows one symbol');
  });

  it('accepts empty symbol cells, symbols in another case and unresolved rows, and counts the faces', () => {
    const text = 'die,type,face,symbol,resolution\nA,red,hit-1,,read\nA,red,crit,CRIT,\nA,red,hit-1,Hit,\nA,red,,,unresolved\nA,red,blank-2,blank,\n';
    const [a] = resolve(parse(text));
    expect([...(a?.faces ?? [])]).toEqual([0, 3, 0, 7]);
    expect(a?.unresolvedAt).toEqual([3]);
  });

  it('keeps one entry per face, however many rows repeat it', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `D${i % 3},d6,${1 + (i % 6)},${1 + (i % 6)}`);
    const log = parse(`die,type,face,symbol\n${rows.join('\n')}\n`);
    for (const d of log.dice) expect(d.faceSymbols?.filter((s) => s !== undefined)).toHaveLength(2);
  });
});
