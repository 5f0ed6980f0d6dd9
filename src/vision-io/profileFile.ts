/**
 * Calibration profiles on disk: read (parse and check, hash included), write
 * (pretty JSON), and where the shipped default profiles live.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../core/errors.js';
import { parseProfile } from '../vision/calibration/profile.js';
import type { CalibrationProfile } from '../vision/calibration/profile.js';

/** Reads and checks a profile file. Throws an InputError naming the file and the problem. */
export async function readProfileFile(file: string): Promise<CalibrationProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : (e as Error).message;
    throw new InputError(`cannot read the calibration profile: ${reason}.`, { file }, { cause: e });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputError(`the calibration profile is not valid JSON: ${(e as Error).message}.`, { file }, { cause: e });
  }
  return parseProfile(value, file);
}

/** Writes a profile as indented JSON (creating the folder). */
export async function writeProfileFile(file: string, profile: CalibrationProfile): Promise<void> {
  await mkdir(dirname(resolve(file)), { recursive: true });
  await writeFile(file, `${JSON.stringify(profile, null, 2)}\n`);
}

/** The checkout or installed package root: the nearest folder above this file holding `calibration/`. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'calibration')) && existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
}

/** Path of the shipped default profile for `red`, `green` or `xwing` dice (made on the simulated camera). */
export function defaultProfilePath(dice: 'red' | 'green' | 'xwing'): string {
  return join(packageRoot(), 'calibration', `default-${dice}.json`);
}
