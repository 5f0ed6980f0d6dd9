import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getDieType } from '../../../src/dice/catalogue.js';
import { formatPath, parseDieDefinitions } from '../../../src/dice/definition.js';
import { InputError } from '../../../src/core/errors.js';

const FILE = 'mine.yaml';

/** The InputError thrown for `text`, so tests can check its message and line. */
function errorFor(text: string, file = FILE): InputError {
  try {
    parseDieDefinitions(text, file);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError');
}

const COIN_YAML = `
id: coin
name: Weighted coin
faces:
  - { id: heads, symbol: H, probability: 3/5 }
  - { id: tails, symbol: T, probability: 0.4 }
opposite: { heads: tails }
`;

describe('parseDieDefinitions', () => {
  it('reads one YAML die with exact-fraction and decimal probabilities, completing the opposite map', () => {
    const [coin] = parseDieDefinitions(COIN_YAML, FILE);
    expect(coin?.id).toBe('coin');
    expect(coin?.symbols).toEqual(['H', 'T']);
    expect(coin?.faceProbabilities).toEqual([0.6, 0.4]);
    expect(coin?.opposite).toEqual({ heads: 'tails', tails: 'heads' });
  });

  it('reads a JSON list of dice and gives uniform odds when none are given', () => {
    const json = JSON.stringify([
      {
        id: 'd4ish',
        faces: [1, 2, 3, 4].map((v) => ({ id: `f${v}`, symbol: String(v), value: v })),
        opposite: { f1: 'f4', f2: 'f3' },
        notes: 'a square prism',
      },
    ]);
    const dice = parseDieDefinitions(json, 'dice.json');
    expect(dice).toHaveLength(1);
    expect(dice[0]?.faceProbabilities).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(dice[0]?.name).toBe('d4ish');
    expect(dice[0]?.faces[2]).toEqual({ id: 'f3', symbol: '3', value: 3 });
    expect(dice[0]?.notes).toBe('a square prism');
  });

  it('keeps numeric YAML ids and symbols as text', () => {
    const text = `
dice:
  - id: tiny
    faces:
      - { id: 1, symbol: 1 }
      - { id: 2, symbol: 2 }
    opposite: { 1: 2 }
`;
    const [tiny] = parseDieDefinitions(text, FILE);
    expect(tiny?.faces.map((f) => f.id)).toEqual(['1', '2']);
    expect(tiny?.opposite).toEqual({ '1': '2', '2': '1' });
  });

  it('refuses an unquoted number YAML would rewrite (00 as 0, 007 as 7, 1.0 as 1), naming its line and saying to quote it', () => {
    expect(errorFor('id: zz\nfaces:\n  - {id: 00, symbol: 00}\n  - {id: 1, symbol: 1}\nopposite: {00: 1}\n').message).toBe(
      'mine.yaml, line 3: id 00 is read by YAML as the number 0: quote it ("00") to keep it as written',
    );
    expect(errorFor('id: zz\nfaces:\n  - {id: "7", symbol: a}\n  - {id: "8", symbol: b}\nopposite:\n  007: 8\n').message).toBe(
      'mine.yaml, line 6: the key 007 is read by YAML as the number 7: quote it ("007") to keep it as written',
    );
    expect(errorFor('id: zz\nsymbols: [a, 1.0]\nfaces: [{id: x, symbol: a}, {id: y, symbol: "1.0"}]\nopposite: {x: y}\n').message).toMatch(/^mine\.yaml, line 2: an item of symbols 1\.0 is read by YAML as the number 1/);
    // Quoted, they are the text written; probabilities are numbers however written.
    const [d] = parseDieDefinitions('id: zz\nfaces:\n  - {id: "00", symbol: "00", probability: 0.50}\n  - {id: "007", symbol: "7", probability: .5}\nopposite: {"00": "007"}\n', FILE);
    expect(d?.faces.map((f) => f.id)).toEqual(['00', '007']);
  });

  it('accepts decimals that sum to 1 only up to float rounding, and renormalises them', () => {
    const text = `
id: thirds
faces:
  - { id: a, symbol: a, probability: 0.3333333333333333 }
  - { id: b, symbol: b, probability: 0.3333333333333333 }
  - { id: c, symbol: c, probability: 0.1666666666666667 }
  - { id: d, symbol: d, probability: 0.1666666666666668 }
opposite: { a: b, c: d }
`;
    const [d] = parseDieDefinitions(text, FILE);
    expect(d?.faceProbabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 15);
  });

  it('derives a die from a built-in with extends, keeping what it does not give', () => {
    const text = `
id: my-green
extends: green
opposite: { evade-1: focus-1, evade-2: blank-1, evade-3: blank-2, focus-2: blank-3 }
`;
    const [d] = parseDieDefinitions(text, FILE);
    expect(d?.id).toBe('my-green');
    expect(d?.symbols).toEqual(['evade', 'focus', 'blank']);
    expect(d?.faces).toEqual(getDieType('green').faces);
    expect(d?.opposite['focus-1']).toBe('evade-1');
    expect(d?.name).toBe(getDieType('green').name);
  });

  it('gives a die that extends a built-in with faces or odds of its own an honest name and no inherited notes, and the base\'s opposites when its face ids are the base\'s', () => {
    const text = `
id: loaded-claim
extends: d6
faces:
  - { id: "1", symbol: "1", probability: 0.1 }
  - { id: "2", symbol: "2", probability: 0.1 }
  - { id: "3", symbol: "3", probability: 0.15 }
  - { id: "4", symbol: "4", probability: 0.15 }
  - { id: "5", symbol: "5", probability: 0.2 }
  - { id: "6", symbol: "6", probability: 0.3 }
`;
    const [d] = parseDieDefinitions(text, FILE);
    expect(d?.name).toBe('loaded-claim (extends d6)');
    expect(d?.notes).toBeUndefined();
    expect(d?.opposite).toEqual(getDieType('d6').opposite);
    const [named] = parseDieDefinitions(`${text}name: Claimed odds\nnotes: the maker's claim\n`, FILE);
    expect(named).toMatchObject({ name: 'Claimed odds', notes: "the maker's claim" });
  });

  it('keeps the base\'s name and notes while the die is the base\'s, and its name but not its notes for another layout', () => {
    const [alias] = parseDieDefinitions('id: my-d6\nextends: d6\n', FILE);
    expect(alias).toMatchObject({ name: 'D6 (pips)', notes: getDieType('d6').notes });
    const [relaid] = parseDieDefinitions('id: my-d6\nextends: d6\nopposite: { "1": "2", "3": "4", "5": "6" }\n', FILE);
    expect(relaid?.name).toBe('D6 (pips)');
    // "opposite faces sum to 7" is no longer true of it.
    expect(relaid?.notes).toBeUndefined();
  });

  it('overrides the opposite layout of a built-in, keeping its id, faces and odds', () => {
    const text = `
overrides: red
opposite: { hit-1: blank-1, hit-2: blank-2, hit-3: focus-1, crit: focus-2 }
notes: measured
`;
    const dice = parseDieDefinitions(text, FILE);
    const red = getDieType('red', dice);
    expect(red.id).toBe('red');
    expect(red.opposite.crit).toBe('focus-2');
    expect(red.opposite['focus-2']).toBe('crit');
    expect(red.faceProbabilities).toEqual(getDieType('red').faceProbabilities);
    expect(red.notes).toBe('measured');
  });

  it('reads the example file shipped in examples/dice', () => {
    const path = fileURLToPath(new URL('../../../examples/dice/custom-d6.yaml', import.meta.url));
    const dice = parseDieDefinitions(readFileSync(path, 'utf8'), 'custom-d6.yaml');
    expect(dice.map((d) => d.id)).toEqual(['casino-d6', 'odd-even', 'red']);
    expect(dice[0]?.faceProbabilities[0]).toBeCloseTo(7 / 40, 15);
    expect(dice[1]?.symbols).toEqual(['odd', 'even']);
  });
});

describe('parseDieDefinitions errors', () => {
  it('refuses a face of probability 0, naming the die, the face and its line', () => {
    const e = errorFor(COIN_YAML.replace('3/5', '1').replace('0.4', '0'));
    expect(e.message).toBe('mine.yaml, line 6: faces[1].probability: die "coin": face "tails" has probability 0; a face\'s probability must be greater than 0');
  });

  it('refuses a die whose faces all show one symbol, and keeps one whose faces share symbols', () => {
    const mono = 'dice:\n  - id: blank\n    extends: d6\n    faces:\n' + [1, 2, 3, 4, 5, 6].map((v) => `      - { id: "${v}", symbol: x }\n`).join('') + '    opposite: { "1": "6", "2": "5", "3": "4" }\n';
    expect(errorFor(mono).message).toBe('mine.yaml, line 4: dice[0].faces: die "blank": every face shows "x"; a die needs at least two distinct symbols');
    const oddEven = mono.replace(/symbol: x \}/g, (m, at: number) => (mono.slice(0, at).match(/symbol: x/g)?.length ?? 0) % 2 === 0 ? 'symbol: odd }' : 'symbol: even }');
    expect(parseDieDefinitions(oddEven, FILE)[0]?.symbols).toEqual(['odd', 'even']);
  });

  it('says what the probabilities sum to when it is not 1, naming file, line and key path', () => {
    const text = `dice:
  - id: lumpy
    faces:
      - { id: a, symbol: a, probability: 1/2 }
      - { id: b, symbol: b, probability: 3/8 }
    opposite: { a: b }
`;
    const e = errorFor(text);
    expect(e.message).toBe('mine.yaml, line 3: dice[0].faces: face probabilities sum to 7/8 (0.875), not 1');
    expect(e.where).toEqual({ file: FILE, line: 3 });
  });

  it('names the face whose symbol is not declared, on its own line', () => {
    const text = `dice:
  - id: bad
    symbols: [hit, crit]
    faces:
      - { id: a, symbol: hit }
      - { id: b, symbol: crit }
      - { id: c, symbol: hit }
      - { id: d, symbol: blank }
    opposite: { a: b, c: d }
`;
    const e = errorFor(text);
    expect(e.message).toBe('mine.yaml, line 8: dice[0].faces[3].symbol: "blank" is not among the declared symbols (hit, crit)');
  });

  it('rejects duplicate face ids', () => {
    const text = `id: dup
faces:
  - { id: a, symbol: x }
  - { id: a, symbol: y }
opposite: { a: a }
`;
    const e = errorFor(text);
    expect(e.message).toMatch(/^mine\.yaml, line 4: faces\[1\]\.id: face id "a" is already used by faces\[0\]/);
    expect(e.message).toMatch(/and 1 more problem: opposite\.a: face "a" cannot be its own opposite \(line 5\)/);
  });

  it('names a face id given twice before saying the opposite map is missing', () => {
    const e = errorFor('id: dup\nfaces:\n  - { id: a, symbol: x }\n  - { id: b, symbol: y }\n  - { id: a, symbol: y }\n');
    expect(e.message).toMatch(/^mine\.yaml, line 5: faces\[2\]\.id: face id "a" is already used by faces\[0\]; and 1 more problem: opposite: a die definition needs an "opposite" map/);
  });

  it('asks a die extending a built-in with faces of other ids for its own opposite map', () => {
    expect(errorFor('id: tri\nextends: d6\nfaces: [{ id: a, symbol: x }, { id: b, symbol: y }]\n').message).toMatch(/opposite: a die definition needs an "opposite" map/);
  });

  it('says which face has no symbol or no id, and what a symbol must be', () => {
    expect(errorFor('id: c\nfaces:\n  - { id: "1" }\n  - { id: "2", symbol: y }\nopposite: { "1": "2" }\n').message).toBe('mine.yaml, line 3: faces[0].symbol: face "1" has no symbol');
    expect(errorFor('id: c\nfaces:\n  - { symbol: x }\n  - { id: "2", symbol: y }\nopposite: { "1": "2" }\n').message).toBe('mine.yaml, line 3: faces[0].id: face 1 has no id');
    expect(errorFor('id: c\nfaces:\n  - { id: a, symbol: true }\n  - { id: b, symbol: y }\nopposite: { a: b }\n').message).toBe('mine.yaml, line 3: faces[0].symbol: must be text or a number');
  });

  it('names the line and column of a trailing comma before "]", where JSON.parse gives no position', () => {
    const json = '{\n  "id": "t",\n  "faces": [\n    {"id": "a", "symbol": "x"},\n    {"id": "b", "symbol": "y"},\n  ],\n  "opposite": {"a": "b"}\n}\n';
    expect(errorFor(json, 'trail.json').message).toBe("trail.json, line 6: the dice file is not valid JSON: Unexpected token ']' (column 3)");
  });

  it('reads a .json file as JSON: a trailing comma is refused with its line and column, in JSON\'s words', () => {
    const json = '[\n  {\n    "id": "coin",\n    "faces": [{ "id": "h", "symbol": "H" }, { "id": "t", "symbol": "T" }],\n    "opposite": { "h": "t" },\n  }\n]\n';
    expect(errorFor(json, 'dice.json').message).toBe('dice.json, line 6: the dice file is not valid JSON: Expected double-quoted property name (column 3)');
    expect(errorFor('{ "id": "coin",', 'DICE.JSON').message).toMatch(/^DICE\.JSON, line 1: the dice file is not valid JSON: .* \(column 16\)$/);
    // The same text in a YAML file is YAML, which allows the comma.
    expect(parseDieDefinitions(json, 'dice.yaml')[0]?.id).toBe('coin');
  });

  it('rejects an opposite map that is not an involution or misses faces', () => {
    const notPaired = errorFor(`id: six
faces: [{id: a, symbol: x}, {id: b, symbol: y}, {id: c, symbol: x}, {id: d, symbol: y}]
opposite: { a: b, b: c, c: d, d: c }
`);
    expect(notPaired.message).toMatch(/opposite\.a: "a" is opposite "b", but "b" is opposite "c" \(opposites must pair up\)/);
    const missing = errorFor(`id: four
faces: [{id: a, symbol: x}, {id: b, symbol: y}, {id: c, symbol: x}, {id: d, symbol: y}]
opposite: { a: b }
`);
    expect(missing.message).toBe('mine.yaml, line 3: opposite: face "c" has no opposite face; and 1 more problem: opposite: face "d" has no opposite face (line 3)');
  });

  it('rejects a die id that clashes with a built-in, pointing to overrides', () => {
    const e = errorFor(`id: red
faces: [{id: a, symbol: x}, {id: b, symbol: x}]
opposite: { a: b }
`);
    expect(e.message).toBe('mine.yaml, line 1: id: die id "red" is the built-in die "red" (ids compare without case); choose another id, or use "overrides: red" to change its layout');
    // In any case: a log's "d6" would name both.
    const upper = errorFor(`id: D6
faces: [{id: a, symbol: x}, {id: b, symbol: x}]
opposite: { a: b }
`);
    expect(upper.message).toBe('mine.yaml, line 1: id: die id "D6" is the built-in die "d6" (ids compare without case); choose another id, or use "overrides: d6" to change its layout');
  });

  it('takes die ids without case: a log naming "coin" or "COIN" finds the die "Coin", and "Coin" and "coin" cannot both be defined', () => {
    const [coin] = parseDieDefinitions('{ id: Coin, faces: [{id: h, symbol: heads}, {id: t, symbol: tails}], opposite: {h: t} }\n', FILE);
    expect(getDieType('coin', [coin!]).id).toBe('Coin');
    expect(getDieType('COIN', [coin!]).id).toBe('Coin');
    const e = errorFor(`- { id: Coin, faces: [{id: a, symbol: s}, {id: b, symbol: t}], opposite: {a: b} }
- { id: coin, faces: [{id: a, symbol: s}, {id: b, symbol: t}], opposite: {a: b} }
`);
    expect(e.message).toBe('mine.yaml, line 2: [1].id: die "coin" is already defined at [0]');
  });

  it('refuses faces whose ids or symbols differ only in case, naming the line, since a log reads "A" and "a" as one', () => {
    const e = errorFor(`id: casey
faces:
  - {id: x, symbol: A}
  - {id: y, symbol: a}
  - {id: X2, symbol: b}
  - {id: x2, symbol: b}
opposite: {x: y, X2: x2}
`);
    expect(e.message).toBe(
      'mine.yaml, line 6: faces[3].id: face id "x2" differs from faces[2]\'s "X2" only in case (face ids compare without case); and 1 more problem: faces[1].symbol: symbol "a" differs from "A" only in case (symbols compare without case) (line 4)',
    );
    const listed = errorFor(`id: c2
symbols: [hit, HIT, miss]
faces: [{id: a, symbol: hit}, {id: b, symbol: miss}]
opposite: {a: b}
`);
    expect(listed.message).toMatch(/^mine\.yaml, line 2: symbols\[1\]: symbol "HIT" differs from "hit" only in case/);
  });

  it('rejects a die defined twice in one file', () => {
    const e = errorFor(`- { id: x, faces: [{id: a, symbol: s}, {id: b, symbol: t}], opposite: {a: b} }
- { id: x, faces: [{id: a, symbol: s}, {id: b, symbol: t}], opposite: {a: b} }
`);
    expect(e.message).toBe('mine.yaml, line 2: [1].id: die "x" is already defined at [0]');
  });

  it('rejects text that is not a probability, and a mix of given and missing probabilities', () => {
    expect(errorFor(`id: c
faces: [{id: a, symbol: x, probability: half}, {id: b, symbol: y, probability: 1/2}]
opposite: {a: b}
`).message).toMatch(/faces\[0\]\.probability: "half" is not a probability: write a number or a fraction like 3\/8/);
    expect(errorFor(`id: c
faces: [{id: a, symbol: x, probability: 1/2}, {id: b, symbol: y}]
opposite: {a: b}
`).message).toMatch(/faces\[1\]\.probability: give a probability for every face or for none \(1 of 2 faces have one\)/);
    expect(errorFor(`id: c
faces: [{id: a, symbol: x, probability: 3/2}, {id: b, symbol: y, probability: -1/2}]
opposite: {a: b}
`).message).toMatch(/faces\[0\]\.probability: probability 3\/2 is not between 0 and 1/);
  });

  it('names the line of an unknown key itself, not of the map holding it, and reads a die id YAML takes for a number as its text', () => {
    const e = errorFor('dice:\n  - id: c2\n    faces:\n      - { id: h, symbol: H }\n      - id: t\n        symbol: T\n        weight: 2\n    opposite: { h: t }\n');
    expect(e.message).toBe('mine.yaml, line 7: dice[0].faces[1].weight: "weight" is not a key of a face definition');
    expect(parseDieDefinitions('id: 12\nfaces: [{id: a, symbol: x}, {id: b, symbol: y}]\nopposite: {a: b}\n', FILE)[0]?.id).toBe('12');
  });

  it('reports schema problems with their key paths: unknown keys, wrong types, missing parts', () => {
    expect(errorFor(`id: c
faces: [{id: a, symbol: x, colour: red}, {id: b, symbol: y}]
opposite: {a: b}
`).message).toMatch(/^mine\.yaml, line 2: faces\[0\]\.colour: "colour" is not a key of a face definition/);
    expect(errorFor(`id: c
faces: [{id: a, symbol: [x]}, {id: b, symbol: y}]
opposite: {a: b}
`).message).toMatch(/faces\[0\]\.symbol: /);
    expect(errorFor(`id: c\nopposite: {a: b}\n`).message).toMatch(/faces: a die definition needs "faces"/);
    expect(errorFor(`id: c\nfaces: [{id: a, symbol: x}, {id: b, symbol: y}]\n`).message).toMatch(/opposite: a die definition needs an "opposite" map/);
    expect(errorFor(`name: nameless\nfaces: [{id: a, symbol: x}, {id: b, symbol: y}]\nopposite: {a: b}\n`).message).toMatch(/id: a die definition needs an "id"/);
  });

  it('limits overrides to the layout, name and notes of a real built-in', () => {
    expect(errorFor(`overrides: blue\nopposite: {a: b}\n`).message).toMatch(/overrides: "blue" is not a built-in die \(built-in dice: red, green, d6, d3, direction\)/);
    expect(errorFor(`overrides: d6\nfaces: [{id: a, symbol: x}, {id: b, symbol: y}]\n`).message).toMatch(
      /faces: an override may change only "opposite", "name" and "notes" of a built-in die/,
    );
    expect(errorFor(`overrides: d6\nopposite: {"1": "2", "3": "4"}\n`).message).toMatch(/opposite: face "5" has no opposite face/);
  });

  it('reports broken YAML and a wrong top-level shape', () => {
    const e = errorFor('id: x\nfaces: [\n');
    expect(e.message).toMatch(/^mine\.yaml, line \d+: the dice file is not valid JSON or YAML/);
    expect(errorFor('42').message).toBe('mine.yaml: the dice file must hold a die definition, a list of them, or { dice: [...] }');
    expect(errorFor('dice: 3').message).toBe('mine.yaml: "dice" must be a list of die definitions');
    expect(errorFor('dice: []\nextra: 1').message).toBe('mine.yaml: unexpected top-level key "extra" beside "dice"');
  });
});

describe('formatPath', () => {
  it('writes key paths the way the messages show them', () => {
    expect(formatPath(['dice', 0, 'faces', 3, 'symbol'])).toBe('dice[0].faces[3].symbol');
    expect(formatPath([2, 'id'])).toBe('[2].id');
    expect(formatPath([])).toBe('');
  });
});
