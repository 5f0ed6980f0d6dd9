/**
 * A config given to `run --resume` must hold the session's dice as the session rolled them: the same labels and
 * types on the same channels, each defined as when the session started. Its monitors were built on those
 * definitions: rolling on against others would judge one die by two.
 */
import { sameDieId } from '../dice/catalogue.js';
import { sameDieType } from '../dice/dieTypeData.js';
import type { DieType } from '../dice/types.js';
import { ConfigError } from '../core/errors.js';
import { configDieTypes, type SessionConfig } from './config.js';
import { readDieDefinitions } from './diceFile.js';

/** Refuses a resume whose config (`given`) holds other dice than the session (`stored`, its stored config). */
export function requireSameDice(sessionId: number, given: SessionConfig, stored: SessionConfig): void {
  const differs = diceDifference(sessionId, given, stored);
  if (differs !== undefined) throw new ConfigError('dice', `cannot resume session ${sessionId} with these dice: ${differs}`);
}

function diceDifference(sessionId: number, a: SessionConfig, b: SessionConfig): string | undefined {
  if (a.dice.length !== b.dice.length) return `the session has ${b.dice.length} dice, the config ${a.dice.length}`;
  const [aTypes, bTypes] = [configDieTypes(a), configDieTypes(b)];
  for (let i = 0; i < a.dice.length; i++) {
    const x = a.dice[i] as SessionConfig['dice'][number];
    const y = b.dice[i] as SessionConfig['dice'][number];
    if (x.label !== y.label || x.type !== y.type) return `channel ${i} holds ${y.label} (${y.type}) in the session but ${x.label} (${x.type}) in the config`;
    if (!sameDieType(aTypes[i] as DieType, bTypes[i] as DieType)) {
      return `the session rolled ${y.label} as the ${y.type} die defined when it started, and ${definedBy(a, x.type)} defines ${x.type} otherwise. ${whatToDo(sessionId, a, x.type)}`;
    }
  }
  return undefined;
}

/** Whether the config's dice file defines this die (a die in both it and `dieTypes` is defined alike: `withDiceFile`). */
function inDiceFile(config: SessionConfig, typeId: string): boolean {
  if (config.diceFile === undefined) return false;
  try {
    return readDieDefinitions(config.diceFile).some((d) => sameDieId(d.id, typeId));
  } catch {
    // Read a moment ago when the config was loaded; gone since, it is not the one to name.
    return false;
  }
}

/** Where the config's definition of the die comes from: its dice file, its own `dieTypes`, or dicerig's catalogue. */
function definedBy(config: SessionConfig, typeId: string): string {
  if (inDiceFile(config, typeId)) return `the config's dice file ${config.diceFile as string}`;
  if (config.dieTypes?.some((d) => sameDieId(d.id, typeId)) === true) return "the config's dieTypes";
  return "dicerig's built-in catalogue";
}

function whatToDo(sessionId: number, config: SessionConfig, typeId: string): string {
  const fix = inDiceFile(config, typeId)
    ? 'Put the dice file back as it was when the session started, or resume without the config'
    : config.dieTypes?.some((d) => sameDieId(d.id, typeId)) === true
      ? "Put the config's dieTypes back as they were when the session started, or resume without the config"
      : 'Resume without the config';
  return `${fix} (dicerig run --resume ${sessionId} --db STORE, no config: the session rolls on with the definitions stored with it); a die defined otherwise is another die: roll it in a new session, under a new id.`;
}
