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

/** `dice` with the sessions' own definitions first; two sessions defining one die otherwise are refused (their rolls cannot be judged as one die's). */
export function withSessionDice(dice: readonly DieType[], sources: readonly SessionDiceSource[]): DieType[] {
  const own: { type: DieType; name: string }[] = [];
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
    }
  }
  return [...own.map((o) => o.type), ...dice];
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
