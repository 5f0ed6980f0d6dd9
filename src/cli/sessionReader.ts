import { ConfigError } from '../core/errors.js';
import type { DieType } from '../dice/types.js';
import { readerFamily } from '../session/setup.js';

/**
 * Why no session can roll dice of `die` (no reader reads them), or undefined when one can: the rule `run` refuses a
 * config by (`readerFamily`), asked rather than restated, so plan and campaign create promise only what run does.
 */
export function noSessionReader(die: DieType): string | undefined {
  try {
    readerFamily([die]);
    return undefined;
  } catch (e) {
    if (e instanceof ConfigError) return e.problem;
    throw e;
  }
}
