/**
 * Die types as plain data, in the catalogue's own shape (`DieType`): how a session config keeps the definitions of
 * its dice that are not built in, so the session, its resumed runs and whoever reads it later judge its dice by the
 * definitions it ran with, with no dice file at hand. Read back, each is checked as a dice file's die is.
 */
import { z } from 'zod';
import { builtInDice, sameDieId } from './catalogue.js';
import { parsePath } from './definition.js';
import type { DieType } from './types.js';
import { checkDieType } from './validate.js';

const faceSchema = z.strictObject({ id: z.string().min(1), symbol: z.string().min(1), value: z.number().optional() });

export const dieTypeSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  faces: z.array(faceSchema).min(1),
  symbols: z.array(z.string().min(1)).min(1),
  faceProbabilities: z.array(z.number()),
  opposite: z.record(z.string(), z.string()),
  notes: z.string().optional(),
});

/** One problem of a list of die types, at a key path inside the list. */
export interface DieTypeDataProblem {
  readonly path: readonly (string | number)[];
  readonly problem: string;
}

/**
 * What is wrong with `types` (schema-valid die types) as a session's own dice: each must be sound (`checkDieType`),
 * each id given once, and a built-in id only as an override of its layout (its faces, symbols and odds unchanged).
 */
export function dieTypesProblems(types: readonly DieType[]): DieTypeDataProblem[] {
  const problems: DieTypeDataProblem[] = [];
  types.forEach((t, i) => {
    for (const p of checkDieType(t)) problems.push({ path: [i, ...parsePath(p.path)], problem: p.problem });
    const other = types.findIndex((u) => sameDieId(u.id, t.id));
    if (other < i) problems.push({ path: [i, 'id'], problem: `die "${t.id}" is already defined at [${other}]` });
    const builtIn = builtInDice.find((d) => sameDieId(d.id, t.id));
    if (builtIn !== undefined && !sameOdds(builtIn, t)) {
      problems.push({ path: [i, 'id'], problem: `"${t.id}" is the built-in die "${builtIn.id}": its faces, symbols and odds are the game's (only its opposite faces, name and notes may change)` });
    }
  });
  return problems;
}

/** The die types a stored session config carries (`dieTypes`); none when it has none. Throws a RangeError on a damaged list. */
export function storedDieTypes(config: unknown): DieType[] {
  const list = typeof config === 'object' && config !== null ? (config as { dieTypes?: unknown }).dieTypes : undefined;
  if (list === undefined) return [];
  const parsed = z.array(dieTypeSchema).safeParse(list);
  const issue = parsed.success ? dieTypesProblems(parsed.data)[0] : { path: parsed.error.issues[0]?.path ?? [], problem: parsed.error.issues[0]?.message ?? 'is not valid' };
  if (issue !== undefined || !parsed.success) {
    const at = (issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    throw new RangeError(`the session's stored die types are damaged: dieTypes${at}: ${issue?.problem ?? 'is not valid'}`);
  }
  return parsed.data;
}

/**
 * A face's value where both give one: a variant of a built-in stored before it took the base's values (sessions,
 * campaigns) has none, and is the die a dice file now reads with them (no test or verdict reads a value).
 */
function sameValue(a: number | undefined, b: number | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** Whether two die types have the same faces, symbols and odds (they may differ in opposite faces, name and notes). */
function sameOdds(a: DieType, b: DieType): boolean {
  return (
    a.faces.length === b.faces.length &&
    a.faces.every((f, i) => f.id === b.faces[i]?.id && f.symbol === b.faces[i]?.symbol && sameValue(f.value, b.faces[i]?.value)) &&
    a.symbols.length === b.symbols.length &&
    a.symbols.every((s, i) => s === b.symbols[i]) &&
    a.faceProbabilities.every((p, i) => p === b.faceProbabilities[i])
  );
}

/** Whether two die types are one definition: the same odds, opposite faces, name and notes. */
export function sameDieType(a: DieType, b: DieType): boolean {
  const opposite = (t: DieType): string => JSON.stringify(Object.entries(t.opposite).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return a.id === b.id && a.name === b.name && a.notes === b.notes && sameOdds(a, b) && opposite(a) === opposite(b);
}
