/**
 * A dice file (`dicerig dice --file`) read from disk, and a session config's dice file turned into the definitions
 * the session keeps (`dieTypes`): a session runs, resumes and is judged by the definitions it started with, whatever
 * later becomes of the file.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, InputError } from '../core/errors.js';
import { tooLarge } from '../core/yamlText.js';
import { sameDieId } from '../dice/catalogue.js';
import { MAX_DICE_FILE_BYTES, parseDieDefinitions } from '../dice/definition.js';
import { dieTypeSchema, sameDieType } from '../dice/dieTypeData.js';
import type { DieType } from '../dice/types.js';
import { fileReadProblem } from '../core/fileReadProblem.js';
import { notUtf8, utf8Text } from '../core/utf8Text.js';

/** The dice a user's JSON/YAML file defines; a missing or unreadable file is an InputError naming it. */
export function readDieDefinitions(file: string): DieType[] {
  let text: string;
  try {
    // Checked before reading: a huge file is refused without loading it.
    const { size } = statSync(file);
    if (size > MAX_DICE_FILE_BYTES) throw new InputError(tooLarge('dice file', size, MAX_DICE_FILE_BYTES), { file });
    const decoded = utf8Text(readFileSync(file));
    if (!decoded.ok) throw new InputError(notUtf8('dice file', decoded.line), { file });
    text = decoded.text;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read the dice file: ${fileReadProblem(e, 'no such file')}`, { file }, { cause: e });
  }
  return parseDieDefinitions(text, file);
}

const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/**
 * A parsed config `value` (before the schema) with its dice file read: `diceFile` (relative to `dir`, the config's
 * folder), or `option` (the command line's, relative to the working folder), which wins. The file's definitions of
 * the config's dice join `dieTypes`, and `diceFile` becomes the absolute path it was read from. A die defined both in
 * the file and in `dieTypes` must be defined alike. `configFile` names the config in errors.
 */
export function withDiceFile(value: unknown, dir: string, configFile: string, option?: string): unknown {
  const top = record(value);
  if (top === undefined) return value;
  const given = option ?? (typeof top.diceFile === 'string' && top.diceFile !== '' ? top.diceFile : undefined);
  if (given === undefined) return value;
  const path = option !== undefined ? resolve(option) : resolve(dir, given);
  const types = (Array.isArray(top.dice) ? top.dice : []).map((d) => record(d)?.type).filter((t): t is string => typeof t === 'string');
  const defined = readDieDefinitions(path).filter((d) => types.some((t) => sameDieId(t, d.id)));
  if (!Array.isArray(top.dieTypes) && top.dieTypes !== undefined) return { ...top, diceFile: path };
  const inline = (top.dieTypes as unknown[] | undefined) ?? [];
  const added = defined.filter((d) => {
    const same = inline.map((raw) => dieTypeSchema.safeParse(raw)).find((p) => p.success && sameDieId(p.data.id, d.id));
    if (same === undefined) return true;
    if (same.success && sameDieType(same.data, d)) return false;
    throw new ConfigError('dieTypes', `die "${d.id}" is defined here and, differently, in the dice file ${path}; define it once`, configFile);
  });
  return { ...top, diceFile: path, dieTypes: [...inline, ...added] };
}
