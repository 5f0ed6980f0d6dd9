import { isPair, isScalar, visit, type Document, type LineCounter } from 'yaml';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { yamlLineOf } from '../core/yamlLine.js';
import { parseYamlText, tooLarge } from '../core/yamlText.js';
import { Rational, sumRationals } from '../core/rational.js';
import { builtInDice } from './catalogue.js';
import type { DieType, Face } from './types.js';
import { jsonErrorPosition } from './jsonErrorPosition.js';
import { checkDieType, PROBABILITY_SUM_TOLERANCE } from './validate.js';

/**
 * User-defined dice, from JSON or YAML text (JSON is read by the YAML parser,
 * which also gives line numbers). A file holds one die, a list of dice, or
 * `{ dice: [...] }`. Each entry is one of:
 *
 * - a new die: `id`, `faces` (each `id`, `symbol`, optional `value` and
 *   `probability`), `opposite`, optional `name`, `symbols`, `notes`;
 * - a variant of a built-in: `id` (new) and `extends: red`, copying whatever
 *   it does not give (faces, symbols, odds; each face's value, from the base's
 *   face of its id, else of its place; the opposite map while its face
 *   ids are the base's; the name and notes only while its faces, odds and
 *   layout are the base's, since they describe them);
 * - an override of a built-in: `overrides: red` with `opposite`, `name` or
 *   `notes` only — the way to declare the physical layout of your own X-Wing
 *   dice, which the catalogue can only assume. Ids, faces and odds stay the game's.
 *
 * Probabilities are numbers or exact texts (`"3/8"`, `0.125`); give one for
 * every face or for none (uniform). `opposite` may list each pair once or both ways.
 */

/** A face id or symbol: YAML reads `1` as a number, so numbers are accepted and kept as text. */
const label = z
  .union([z.string().min(1, 'is empty'), z.number()], { error: (issue) => (issue.input === undefined ? MISSING : 'must be text or a number') })
  .transform(String);

/** The schema's word for a key not given, which `describeIssue` turns into a sentence naming the face. */
const MISSING = 'is missing';

const faceSchema = z.strictObject({
  id: label,
  symbol: label,
  value: z.number().optional(),
  probability: z.union([z.number(), z.string()]).optional(),
});

const entrySchema = z.strictObject({
  // YAML reads `id: 12` as a number: a die id of digits is its text (numberNotAsWritten refuses one it would rewrite).
  id: z
    .union([z.string(), z.number().transform(String)])
    .pipe(z.string())
    .pipe(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, 'a die id uses letters, digits and . _ + - only, and starts with a letter or digit'))
    .optional(),
  name: z.string().min(1).optional(),
  extends: z.string().optional(),
  overrides: z.string().optional(),
  symbols: z.array(label).min(1).optional(),
  faces: z.array(faceSchema).min(1).optional(),
  opposite: z.record(z.string(), label).optional(),
  notes: z.string().optional(),
});

type Entry = z.infer<typeof entrySchema>;
type Path = (string | number)[];

/** A dice file defines a handful of dice; the cap keeps a hostile file from costing time and memory. */
export const MAX_DICE_FILE_BYTES = 1024 * 1024;

interface Problem {
  path: Path;
  problem: string;
}

/**
 * Parses die definitions from `text` (JSON or YAML); `fileName` only names
 * the file in errors. Returns the dice in file order: overrides keep the
 * built-in id (pass the result as `extra` to `getDieType`). Throws an
 * InputError naming the file, line and key path of the first problem, with a
 * count and summary of the others.
 */
export function parseDieDefinitions(text: string, fileName: string): DieType[] {
  // A .json file is JSON: the YAML reader would take a trailing comma or a comment, and word its errors as YAML's.
  if (/\.json$/i.test(fileName)) checkJson(text, fileName);
  const parsed = parseYamlText(text, MAX_DICE_FILE_BYTES, 'dice file');
  if ('problem' in parsed) {
    const problem = parsed.problem.replace(/^not valid YAML or JSON: /, 'the dice file is not valid JSON or YAML: ');
    throw new InputError(problem, { file: fileName, ...(parsed.line ? { line: parsed.line } : {}) });
  }
  const { doc, lines } = parsed;
  const rewritten = numberNotAsWritten(doc, lines, text);
  if (rewritten !== undefined) throw new InputError(rewritten.problem, { file: fileName, line: rewritten.line });
  const root: unknown = parsed.value;
  const located = entriesOf(root);
  if (typeof located === 'string') throw new InputError(located, { file: fileName });

  const problems: Problem[] = [];
  const dice: DieType[] = [];
  const seenIds = new Map<string, string>();
  for (const { value, path } of located) {
    const parsed = entrySchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        // An unknown key is said at its own line, not its map's: the path goes on to the first key named.
        const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
        const key = keys.length === 1 ? keys[0] : undefined;
        problems.push({ path: [...path, ...issue.path.map(pathPart), ...(key !== undefined ? [key] : [])], problem: key !== undefined ? `"${key}" is not a key of a ${issue.path.length === 0 ? 'die' : 'face'} definition` : describeIssue(value, issue.path.map(pathPart), issue.message) });
      }
      continue;
    }
    const before = problems.length;
    const die = buildDie(parsed.data, path, problems);
    if (!die || problems.length > before) continue;
    // Ids compare without case (sameDieId): `Coin` and `coin` would be one die to every log.
    const other = seenIds.get(die.id.toLowerCase());
    if (other !== undefined) {
      problems.push({ path: [...path, parsed.data.overrides !== undefined ? 'overrides' : 'id'], problem: `die "${die.id}" is already defined at ${other}` });
      continue;
    }
    seenIds.set(die.id.toLowerCase(), formatPath(path) || 'the top level');
    dice.push(die);
  }
  if (problems.length > 0) throw toError(problems, doc, lines, fileName);
  return dice;
}

/**
 * The first unquoted number YAML reads as other than written (`00` is 0, `007` is 7, `1.50` is 1.5) where a face id,
 * symbol or die id is given: kept as text it would be the number's digits, a face other than the one the file names
 * (and `007` and `7` one face). Probabilities and values are numbers, and may be written as the user likes.
 */
function numberNotAsWritten(doc: Document, lines: LineCounter, text: string): { problem: string; line: number } | undefined {
  let found: { problem: string; line: number } | undefined;
  visit(doc, {
    Scalar(key, node, path) {
      if (typeof node.value !== 'number' || node.type !== 'PLAIN' || !node.range) return undefined;
      const parent = path.at(-1);
      const name = isPair(parent) && isScalar(parent.key) ? String(parent.key.value) : undefined;
      if (key === 'value' && (name === 'probability' || name === 'value')) return undefined;
      const written = text.slice(node.range[0], node.range[1]);
      if (written === String(node.value)) return undefined;
      const list = path.at(-2);
      const what = key === 'key' ? 'the key' : name !== undefined ? name : isPair(list) && isScalar(list.key) ? `an item of ${String(list.key.value)}` : 'the item';
      found = { problem: `${what} ${written} is read by YAML as the number ${String(node.value)}: quote it ("${written}") to keep it as written`, line: lines.linePos(node.range[0]).line };
      return visit.BREAK;
    },
  });
  return found;
}

function pathPart(p: PropertyKey): string | number {
  return typeof p === 'number' ? p : String(p);
}

/** A schema problem as a sentence: a face's missing id or symbol names the face (`face "1" has no symbol`). */
function describeIssue(entry: unknown, path: readonly (string | number)[], message: string): string {
  const [key, index, field] = path;
  if (message !== MISSING || key !== 'faces' || typeof index !== 'number' || typeof field !== 'string') return message === MISSING ? `${String(path.at(-1))} is missing` : message;
  const face = (entry as { faces?: unknown[] }).faces?.[index] as Record<string, unknown> | undefined;
  const id = face?.['id'];
  return `${typeof id === 'string' || typeof id === 'number' ? `face "${String(id)}"` : `face ${index + 1}`} has no ${field}`;
}

/**
 * Refuses text that is not JSON, naming the line and column: a `.json` dice file is read as JSON. Checked before the
 * YAML reader parses it again for its key paths' lines (JSON is YAML); the size cap is checked first.
 */
function checkJson(text: string, file: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_DICE_FILE_BYTES) throw new InputError(tooLarge('dice file', bytes, MAX_DICE_FILE_BYTES), { file });
  try {
    JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    // V8 says where as "at position N" for some errors only: for the others ("Unexpected token ']', …") the scanner finds it.
    const at = /at position (\d+)/.exec(e.message);
    const position = at ? Number(at[1]) : (jsonErrorPosition(text) ?? text.length);
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    // V8 quotes the text around an unexpected token, across lines: the line and column say where instead.
    const why = e.message
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/^(Unexpected token '.{1,2}'), [\s\S]*$/u, '$1')
      .replace(/^JSON\.parse: /, '');
    throw new InputError(`the dice file is not valid JSON: ${why} (column ${column})`, { file, line }, { cause: e });
  }
}

/** The die entries and their key paths, or a sentence saying why the shape is wrong. */
function entriesOf(root: unknown): { value: unknown; path: Path }[] | string {
  if (Array.isArray(root)) return root.map((value, i) => ({ value, path: [i] }));
  if (root !== null && typeof root === 'object') {
    if ('dice' in root) {
      const list = (root as { dice: unknown }).dice;
      const extra = Object.keys(root).filter((k) => k !== 'dice');
      if (extra.length > 0) return `unexpected top-level key "${extra[0]}" beside "dice"`;
      if (!Array.isArray(list)) return '"dice" must be a list of die definitions';
      return list.map((value, i) => ({ value, path: ['dice', i] }));
    }
    return [{ value: root, path: [] }];
  }
  return 'the dice file must hold a die definition, a list of them, or { dice: [...] }';
}

// Keyed without case: die ids compare without case (catalogue.ts sameDieId).
const builtInById = new Map(builtInDice.map((d) => [d.id.toLowerCase(), d]));

/** Turns a schema-valid entry into a die, pushing problems (with paths) instead of throwing. */
function buildDie(entry: Entry, path: Path, problems: Problem[]): DieType | undefined {
  const at = (...rest: Path): Path => [...path, ...rest];
  const fail = (p: Path, problem: string): undefined => void problems.push({ path: p, problem });
  const known = builtInDice.map((d) => d.id).join(', ');

  if (entry.overrides !== undefined) {
    const base = builtInById.get(entry.overrides.toLowerCase());
    if (!base) return fail(at('overrides'), `"${entry.overrides}" is not a built-in die (built-in dice: ${known})`);
    for (const key of ['id', 'extends', 'symbols', 'faces'] as const) {
      if (entry[key] !== undefined) {
        return fail(at(key), `an override may change only "opposite", "name" and "notes" of a built-in die; use "extends" with a new id to change "${key}"`);
      }
    }
    const opposite = entry.opposite ? symmetricOpposite(entry.opposite, at('opposite'), problems) : base.opposite;
    if (!opposite) return undefined;
    return finish({ ...base, opposite, name: entry.name ?? base.name, notes: entry.notes ?? base.notes }, path, problems);
  }

  if (entry.id === undefined) return fail(at('id'), 'a die definition needs an "id" (or "overrides" to change a built-in die)');
  const builtIn = builtInById.get(entry.id.toLowerCase());
  if (builtIn !== undefined) {
    return fail(at('id'), `die id "${entry.id}" is the built-in die "${builtIn.id}" (ids compare without case); choose another id, or use "overrides: ${builtIn.id}" to change its layout`);
  }
  let base: DieType | undefined;
  if (entry.extends !== undefined) {
    base = builtInById.get(entry.extends.toLowerCase());
    if (!base) return fail(at('extends'), `"${entry.extends}" is not a built-in die (built-in dice: ${known})`);
  }
  if (!entry.faces && !base) return fail(at('faces'), 'a die definition needs "faces" (or "extends" to start from a built-in die)');

  let faces: readonly Face[];
  let probabilities: readonly number[];
  if (entry.faces) {
    faces = entry.faces.map((f, i) => {
      const value = f.value ?? baseValue(base, entry.faces as readonly { id: string }[], i);
      return value === undefined ? { id: f.id, symbol: f.symbol } : { id: f.id, symbol: f.symbol, value };
    });
    const p = faceProbabilities(entry.id, entry.faces, at('faces'), problems);
    if (!p) return undefined;
    probabilities = p;
  } else {
    faces = base!.faces;
    probabilities = base!.faceProbabilities;
  }
  const symbols = entry.symbols ?? (entry.faces || !base ? [...new Set(faces.map((f) => f.symbol))] : base.symbols);

  let opposite: Readonly<Record<string, string>>;
  if (entry.opposite) {
    const o = symmetricOpposite(entry.opposite, at('opposite'), problems);
    if (!o) return undefined;
    opposite = o;
  } else if (base && sameFaceIds(faces, base.faces)) {
    // Faces of its own with the base's ids (new symbols or odds) lie as the base's do.
    opposite = base.opposite;
  } else {
    // A face id given twice cannot be paired: say so first, it is likely why the map is missing.
    duplicateFaceIds(faces, at('faces'), problems);
    return fail(at('opposite'), 'a die definition needs an "opposite" map pairing every face with the face on the other side');
  }

  // The base's name and notes describe its faces, odds and layout: a die that changes them gets its own.
  const asBase = base !== undefined && sameFaces(faces, probabilities, base);
  const sameLayout = asBase && sameOpposite(opposite, (base as DieType).opposite);
  const name = entry.name ?? (base === undefined ? entry.id : asBase ? base.name : `${entry.id} (extends ${base.id})`);
  const notes = entry.notes ?? (sameLayout ? base?.notes : undefined);
  return finish({ id: entry.id, name, faces, symbols, faceProbabilities: probabilities, opposite, ...(notes !== undefined ? { notes } : {}) }, path, problems);
}

/**
 * The value a face given without one takes from the die it extends: a D6's face shows its pips whatever symbol the
 * variant names it by. The base's face of the same id, else (faces renamed, as many as the base's) the one in its place.
 */
function baseValue(base: DieType | undefined, faces: readonly { id: string }[], i: number): number | undefined {
  if (base === undefined) return undefined;
  const id = (faces[i] as { id: string }).id.toLowerCase();
  const same = base.faces.find((f) => f.id.toLowerCase() === id);
  if (same !== undefined) return same.value;
  return faces.length === base.faces.length ? base.faces[i]?.value : undefined;
}

function sameFaceIds(a: readonly Face[], b: readonly Face[]): boolean {
  const ids = new Set(a.map((f) => f.id));
  return ids.size === a.length && a.length === b.length && b.every((f) => ids.has(f.id));
}

/** Whether `faces` and their odds are `base`'s: the same faces in order, the same symbols and values, the same probabilities. */
function sameFaces(faces: readonly Face[], probabilities: readonly number[], base: DieType): boolean {
  return (
    faces.length === base.faces.length &&
    faces.every((f, i) => f.id === base.faces[i]?.id && f.symbol === base.faces[i]?.symbol && f.value === base.faces[i]?.value) &&
    probabilities.every((p, i) => Math.abs(p - (base.faceProbabilities[i] as number)) <= PROBABILITY_SUM_TOLERANCE)
  );
}

function sameOpposite(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  return Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
}

/** Pushes a problem for each face id given again (as `checkDieType` words it). */
function duplicateFaceIds(faces: readonly Face[], path: Path, problems: Problem[]): void {
  const first = new Map<string, number>();
  faces.forEach((f, i) => {
    const j = first.get(f.id);
    if (j !== undefined) problems.push({ path: [...path, i, 'id'], problem: `face id "${f.id}" is already used by faces[${j}]` });
    else first.set(f.id, i);
  });
}

/** Runs the structural checks and reports them at paths inside the entry. */
function finish(die: DieType, path: Path, problems: Problem[]): DieType | undefined {
  const found = checkDieType(die);
  for (const p of found) problems.push({ path: [...path, ...parsePath(p.path)], problem: p.problem });
  return found.length === 0 ? die : undefined;
}

/** Exact face probabilities (uniform when none are given), renormalised only for float rounding. */
function faceProbabilities(dieId: string, faces: readonly { id: string; probability?: number | string | undefined }[], path: Path, problems: Problem[]): number[] | undefined {
  const given = faces.filter((f) => f.probability !== undefined).length;
  if (given === 0) return faces.map(() => 1 / faces.length);
  if (given !== faces.length) {
    const missing = faces.findIndex((f) => f.probability === undefined);
    problems.push({ path: [...path, missing, 'probability'], problem: `give a probability for every face or for none (${given} of ${faces.length} faces have one)` });
    return undefined;
  }
  const exact: Rational[] = [];
  let ok = true;
  faces.forEach((f, i) => {
    const p = f.probability!;
    const r = typeof p === 'number' ? (Number.isFinite(p) ? Rational.fromNumber(p) : undefined) : Rational.parse(p);
    if (!r) {
      problems.push({ path: [...path, i, 'probability'], problem: `"${p}" is not a probability: write a number or a fraction like 3/8` });
      ok = false;
    } else if (r.equals(Rational.ZERO)) {
      // Every fairness test divides by a face's odds: a face that never comes up would make them infinite.
      problems.push({ path: [...path, i, 'probability'], problem: `die "${dieId}": face "${faces[i]?.id}" has probability 0; a face's probability must be greater than 0` });
      ok = false;
    } else if (r.compare(Rational.ZERO) < 0 || r.compare(Rational.ONE) > 0) {
      problems.push({ path: [...path, i, 'probability'], problem: `probability ${r} is not between 0 and 1` });
      ok = false;
    } else exact.push(r);
  });
  if (!ok) return undefined;
  const sum = sumRationals(exact);
  if (!sum.equals(Rational.ONE)) {
    // Decimals such as 0.3333333333333333 cannot sum to exactly 1; accept float rounding, nothing more.
    if (Math.abs(sum.toNumber() - 1) > PROBABILITY_SUM_TOLERANCE) {
      problems.push({ path, problem: `face probabilities sum to ${sum} (${sum.toNumber()}), not 1` });
      return undefined;
    }
  }
  const total = sum.toNumber();
  return exact.map((r) => r.toNumber() / total);
}

/** Completes a map that lists each pair once; reports pairs that contradict each other. */
function symmetricOpposite(given: Readonly<Record<string, string>>, path: Path, problems: Problem[]): Record<string, string> | undefined {
  const out: Record<string, string> = { ...given };
  let ok = true;
  for (const [a, b] of Object.entries(given)) {
    const back = given[b];
    if (back === undefined) out[b] = a;
    else if (back !== a) {
      problems.push({ path: [...path, a], problem: `"${a}" is opposite "${b}", but "${b}" is opposite "${back}" (opposites must pair up)` });
      ok = false;
    }
  }
  return ok ? out : undefined;
}

/** `faces[3].symbol` -> ['faces', 3, 'symbol']. */
export function parsePath(text: string): Path {
  const out: Path = [];
  for (const m of text.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : (m[1] as string));
  return out;
}

/** ['dice', 0, 'faces', 3, 'symbol'] -> `dice[0].faces[3].symbol`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? p : `.${p}`;
  }
  return out;
}



function toError(problems: Problem[], doc: Document, lines: LineCounter, fileName: string): InputError {
  const describe = (p: Problem): string => {
    const where = formatPath(p.path);
    return where ? `${where}: ${p.problem}` : p.problem;
  };
  const [first, ...rest] = problems as [Problem, ...Problem[]];
  const line = yamlLineOf(doc, lines, first.path);
  let message = describe(first);
  if (rest.length > 0) {
    message += `; and ${rest.length} more problem${rest.length > 1 ? 's' : ''}: ${rest
      .slice(0, 5)
      .map((p) => {
        const l = yamlLineOf(doc, lines, p.path);
        return l ? `${describe(p)} (line ${l})` : describe(p);
      })
      .join('; ')}${rest.length > 5 ? '; …' : ''}`;
  }
  return new InputError(message, { file: fileName, ...(line ? { line } : {}) });
}
