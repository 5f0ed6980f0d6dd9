/**
 * Calibration profiles on disk: read (parse and check, hash included), write
 * (pretty JSON), and where the shipped default profiles live.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../core/errors.js';
import { writeFileAtomic } from './outputFile.js';
import { D6_CHECK_FORMAT } from '../vision/calibration/d6Check.js';
import { parseProfile } from '../vision/calibration/profile.js';
import type { CalibrationProfile } from '../vision/calibration/profile.js';
import { fileReadProblem } from '../core/fileReadProblem.js';

/** A JSON file's parsed content; an InputError names the file and says what it should have held (`what`). */
export async function readJsonFile(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const reason = fileReadProblem(e);
    throw new InputError(`cannot read the ${what}: ${reason}.`, { file }, { cause: e });
  }
  if (text.trim() === '') throw new InputError(`the ${what} is empty: it holds no JSON`, { file });
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new InputError(`the ${what} is not valid JSON: ${(e as Error).message}.`, { file }, { cause: e });
  }
}

/** Writes a value as indented JSON, whole or not at all (creating the folder: `writeFileAtomic`). */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Reads and checks a profile file. Throws an InputError naming the file and the problem. */
export async function readProfileFile(file: string): Promise<CalibrationProfile> {
  const value = await readJsonFile(file, 'calibration profile');
  if (value !== null && typeof value === 'object' && (value as { format?: unknown }).format === D6_CHECK_FORMAT) {
    throw new InputError('this is a D6 check (it bounds the misreads of D6-faced dice), not an X-Wing calibration profile: make one with dicerig calibrate --die red|green|xwing.', { file });
  }
  return parseProfile(value, file);
}

/** Writes a profile as indented JSON (creating the folder). */
export async function writeProfileFile(file: string, profile: CalibrationProfile): Promise<void> {
  await writeJsonFile(file, profile);
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
