/**
 * An empty value for a path ("" from an unset shell variable: --out "$DIR") resolves to the current folder: report
 * --out "" and run --keep-frames "" wrote into it, --db "" was called "a folder, not a roll store file". Refused
 * before any command runs, naming the option or argument.
 */
import type { Command } from 'commander';
import { InputError } from '../core/errors.js';

/** Options (by attribute name) whose value names a file, folder, device, URL or session, with what to give; other options may take an empty value. */
const NAMED_OPTIONS: ReadonlyMap<string, string> = new Map([
  ...['out', 'db', 'diceFile', 'file', 'images', 'labels', 'labelsFrom', 'calibration', 'check', 'config', 'keepFrames', 'head', 'fromLabelled', 'camera', 'dice'].map((k) => [k, 'a file or folder name'] as const),
  ['port', 'a port'],
  ['to', 'a postgres:// URL'],
  ['fleet', 'a postgres:// URL'],
  ['resume', 'a session id or name'],
]);

const blank = (v: unknown): boolean => (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.some(blank));

/** Throws an InputError for the first path option or argument of `cmd` given as an empty (or all-space) string. */
export function refuseEmptyValues(cmd: Command): void {
  for (const option of cmd.options) {
    const key = option.attributeName();
    const what = NAMED_OPTIONS.get(key);
    if (what !== undefined && blank(cmd.getOptionValue(key))) throw new InputError(`${option.long ?? option.flags} is empty: give ${what} (an unset shell variable?)`);
  }
  cmd.registeredArguments.forEach((argument, i) => {
    // A campaign <name> has its own check, which says what a name may hold.
    if (argument.name() === 'name' || !blank(cmd.processedArgs[i])) return;
    const which = argument.variadic ? `one of the <${argument.name()}...> arguments` : `the <${argument.name()}> argument`;
    throw new InputError(`${which} is empty: give its value (an unset shell variable?)`);
  });
}
