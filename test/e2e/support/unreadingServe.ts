import { simServeConfig } from '../../../src/server/serve.js';
import { checkSessionConfig, type SessionConfig } from '../../../src/session/config.js';

/**
 * `serve --sim d6` with a reader that declines every face: after four throws with no die read a roll fails and
 * stream rolling stops (what the overlay and dashboard must then show).
 */
export function unreadingD6Config(): SessionConfig {
  const base = simServeConfig('d6', { clock: 'simulated', seed: 5, cockedRate: 0 });
  const declines = Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((f) => [f, 1]));
  return checkSessionConfig({ ...base, camera: { ...base.camera, declines }, stopping: { ...base.stopping, maxConsecutiveUnread: 4 } }, '(test)');
}
