/**
 * The dice a command judges stored sessions and exports by: each session's own definitions (its config's `dieTypes`,
 * kept since it ran, or in an export's manifest) before the built-in dice and `--dice-file`'s, so a session of dice
 * of the user's own is judged by the definitions it ran with, with no dice file at hand.
 */
import { InputError } from '../core/errors.js';
import { builtInDice, sameDieId } from './catalogue.js';
import { sameDieType, storedDieTypes } from './dieTypeData.js';
import type { DieType } from './types.js';

/** A session's config (parsed) and how to name the session in a message. */
export interface SessionDiceSource {
  readonly name: string;
  readonly config: unknown;
}

/**
 * `dice` with the sessions' own definitions first. One die defined two ways cannot be judged as one die's rolls, and
 * judging one by the other's definition would be silent: refused when two sessions define it otherwise, when a session
 * rolled the built-in die another session defines otherwise (an override of its layout), and when `diceFile` (the
 * file `dice` was read with) defines a session's own die otherwise.
 */
export function withSessionDice(dice: readonly DieType[], sources: readonly SessionDiceSource[], diceFile?: string): DieType[] {
  const own: { type: DieType; name: string }[] = [];
  // The built-in dice sessions rolled as built in: only to refuse a session defining one otherwise beside them.
  const asBuiltIn: { type: DieType; name: string }[] = [];
  for (const source of sources) {
    let types: DieType[];
    try {
      types = storedDieTypes(source.config);
    } catch (e) {
      throw new InputError(`${source.name}: ${(e as Error).message}`, {}, { cause: e });
    }
    for (const type of types) {
      const seen = own.find((o) => sameDieId(o.type.id, type.id));
      if (seen === undefined) own.push({ type, name: source.name });
      else if (!sameDieType(seen.type, type)) throw new InputError(`${source.name} defines die "${type.id}" otherwise than ${seen.name} does: judge their rolls apart`);
      const builtIn = asBuiltIn.find((o) => sameDieId(o.type.id, type.id));
      if (builtIn !== undefined && !sameDieType(builtIn.type, type)) throw new InputError(`${source.name} defines die "${type.id}" otherwise than the built-in one ${builtIn.name} rolled: judge their rolls apart`);
      const fromFile = diceFile !== undefined ? dice.find((d) => sameDieId(d.id, type.id)) : undefined;
      if (fromFile !== undefined && !isBuiltInAsIs(fromFile) && !sameDieType(fromFile, type)) {
        throw new InputError(`${source.name} defines die "${type.id}" otherwise than ${diceFile} does: a session is judged by the definition it ran with; judge its rolls apart from the file's, or give no --dice-file`);
      }
    }
    for (const id of rolledTypes(source.config)) {
      const builtIn = builtInDice.find((d) => sameDieId(d.id, id));
      if (builtIn === undefined || types.some((t) => sameDieId(t.id, id))) continue;
      const defined = own.find((o) => sameDieId(o.type.id, id));
      if (defined !== undefined && !sameDieType(defined.type, builtIn)) throw new InputError(`${source.name} rolled die "${builtIn.id}" as built in, and ${defined.name} defines it otherwise: judge their rolls apart`);
      if (!asBuiltIn.some((o) => sameDieId(o.type.id, id))) asBuiltIn.push({ type: builtIn, name: source.name });
    }
  }
  return [...own.map((o) => o.type), ...dice];
}

/** The die types a session config's dice name (`dice[].type`); none when it names none. */
function rolledTypes(config: unknown): string[] {
  const list = typeof config === 'object' && config !== null ? (config as { dice?: unknown }).dice : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((d: unknown) => {
    const type = typeof d === 'object' && d !== null ? (d as { type?: unknown }).type : undefined;
    return typeof type === 'string' ? [type] : [];
  });
}

function isBuiltInAsIs(type: DieType): boolean {
  return builtInDice.some((d) => sameDieType(d, type));
}

/** The die types of `rolls` that are not built in as they are (dice of the user's own, or a changed layout): what an imported session keeps. */
export function ownDieTypes(types: readonly DieType[]): DieType[] {
  const out: DieType[] = [];
  for (const t of types) {
    const builtIn = builtInDice.find((d) => sameDieId(d.id, t.id));
    if ((builtIn === undefined || !sameDieType(builtIn, t)) && !out.some((o) => sameDieId(o.id, t.id))) out.push(t);
  }
  return out;
}

/** A stored session's config as a value; nothing when it is not JSON (it then defines no dice of its own). */
export function parsedConfig(configJson: string): unknown {
  try {
    return JSON.parse(configJson) as unknown;
  } catch {
    return undefined;
  }
}
