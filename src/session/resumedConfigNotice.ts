/**
 * A resumed session runs with the config stored with it: its verdicts are made under its own stopping rules, and its
 * simulated parts must stay the ones its rolls came from. A config given with `--resume` is checked against the
 * session's dice (another die is refused); any other setting it changes is not used, and this notice names each one
 * so the user is not left believing a new budget, alpha or light level took effect.
 */
import { formatKeyPath, type SessionConfig } from './config.js';

/** Keys whose difference means nothing here: the command line's --db wins, and the dice's definitions are checked by `sameDice`. */
const IGNORED = new Set(['db', 'diceFile', 'dieTypes']);
/** A die's own keys `sameDice` checks already (another die is refused, not noticed). */
const DIE_IGNORED = new Set(['label', 'type']);

interface Difference {
  readonly key: string;
  readonly given: unknown;
  readonly stored: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every leaf key path where `given` and `stored` differ (arrays other than `dice` are compared whole). */
function differences(given: unknown, stored: unknown, path: (string | number)[], out: Difference[]): void {
  if (path.length === 1 && path[0] === 'dice' && Array.isArray(given) && Array.isArray(stored) && given.length === stored.length) {
    given.forEach((d, i) => differences(d, stored[i], ['dice', i], out));
    return;
  }
  if (isObject(given) && isObject(stored)) {
    const inDie = path.length === 2 && path[0] === 'dice';
    for (const key of new Set([...Object.keys(given), ...Object.keys(stored)])) {
      if ((path.length === 0 && IGNORED.has(key)) || (inDie && DIE_IGNORED.has(key))) continue;
      differences(given[key], stored[key], [...path, key], out);
    }
    return;
  }
  if (JSON.stringify(given) !== JSON.stringify(stored)) out.push({ key: formatKeyPath(path), given, stored });
}

function shown(value: unknown): string {
  if (value === undefined) return 'unset';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The notice for a config given with `--resume` whose settings differ from the session's (`stored`: the config the
 * session runs with, its budget as raised), or undefined when none does. `moreRolls`, `moreHours`: whether the roll or
 * time budget is raised now.
 */
export function resumedConfigNotice(sessionId: number, given: SessionConfig, stored: SessionConfig, moreRolls: boolean, moreHours = false): string | undefined {
  const found: Difference[] = [];
  // Through JSON, as the stored one was: a key set to undefined is a key not given.
  differences(JSON.parse(JSON.stringify(given)) as unknown, JSON.parse(JSON.stringify(stored)) as unknown, [], found);
  if (found.length === 0) return undefined;
  const each = found.map((d) => `${d.key} (${shown(d.given)} in this config, ${shown(d.stored)} in the session)`);
  const rolls = !moreRolls && found.some((d) => d.key === 'stopping.budgetRolls') ? '; to roll on past its budget, give --more-rolls N' : '';
  const hours = !moreHours && found.some((d) => d.key === 'stopping.budgetHours') ? '; to roll on past its time budget, give --more-hours H' : '';
  const budget = rolls + hours;
  return `session ${sessionId} runs with the config stored with it, so its verdicts stay under its own rules; this config's ${each.join(', ')} ${found.length === 1 ? 'is' : 'are'} not used${budget}`;
}
