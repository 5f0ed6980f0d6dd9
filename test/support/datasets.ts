import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The shared datasets folder: `DICERIG_DATASETS` if set, else `../shared/datasets`
 * beside the checkout (where CI and developers' machines keep it).
 */
export function datasetsDir(): string {
  return process.env['DICERIG_DATASETS'] ?? resolve(process.cwd(), '..', 'shared', 'datasets');
}

/** One shared dataset's folder, or an error naming where it was looked for and how to point the tests at it. */
export function sharedDataset(name: string): string {
  const dir = join(datasetsDir(), name);
  if (!existsSync(dir)) {
    throw new Error(`the shared dataset ${name} is not at ${dir}: put the shared datasets folder at ../shared/datasets beside the checkout, or set DICERIG_DATASETS to it.`);
  }
  return dir;
}
