import { ConfigError } from '../../../src/core/errors.js';
import { parseSessionConfig } from '../../../src/session/config.js';

/** The ConfigError a session config's text is refused with (as `run.yaml`); fails the test when it is accepted. */
export function configProblem(text: string): ConfigError {
  try {
    parseSessionConfig(text, 'run.yaml');
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('the config was accepted');
}
