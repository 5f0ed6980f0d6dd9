import { resolve } from 'node:path';

/**
 * The shared datasets folder: `DICERIG_DATASETS` if set, else `../shared/datasets`
 * beside the checkout (where CI and developers' machines keep it).
 */
export function datasetsDir(): string {
  return process.env['DICERIG_DATASETS'] ?? resolve(process.cwd(), '..', 'shared', 'datasets');
}
