/** D6 checks on disk (`vision/calibration/d6Check.ts`): read (parsed and checked, hash included) and written. */
import { parseD6Check, type D6Check } from '../vision/calibration/d6Check.js';
import { readJsonFile, writeJsonFile } from './profileFile.js';

/** Reads and checks a D6 check file; an InputError names the file and the problem. */
export async function readD6CheckFile(file: string): Promise<D6Check> {
  return parseD6Check(await readJsonFile(file, 'D6 check'), file);
}

/** Writes a D6 check as indented JSON (creating the folder). */
export async function writeD6CheckFile(file: string, check: D6Check): Promise<void> {
  await writeJsonFile(file, check);
}
