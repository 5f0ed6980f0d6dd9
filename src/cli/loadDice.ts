import { readFileSync, statSync } from 'node:fs';
import { allDice } from '../dice/catalogue.js';
import { MAX_DICE_FILE_BYTES, parseDieDefinitions } from '../dice/definition.js';
import type { DieType } from '../dice/types.js';
import { InputError } from '../core/errors.js';
import { tooLarge } from '../core/yamlText.js';

/** The built-in dice plus (overridden by) the user's definitions from `file`, if given. */
export function loadDice(file?: string): DieType[] {
  return allDice(file === undefined ? [] : readDieDefinitions(file));
}

/** The dice a user's JSON/YAML file defines; a missing or unreadable file is an InputError naming it. */
export function readDieDefinitions(file: string): DieType[] {
  let text: string;
  try {
    // Checked before reading: a huge file is refused without loading it.
    const { size } = statSync(file);
    if (size > MAX_DICE_FILE_BYTES) throw new InputError(tooLarge('dice file', size, MAX_DICE_FILE_BYTES), { file });
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`cannot read the dice file: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`, { file }, { cause: e });
  }
  return parseDieDefinitions(text, file);
}
