/**
 * A resumed session rolls on the rig it started on. Its rig checks and its RIG_SUSPECT verdicts are about that rig;
 * dice rolled on another board mid-session would mix two rigs' biases into one die's evidence. Now that a resumed
 * session can be told a new port (`resumedAddresses.ts`), another board could answer there: it is refused by its id.
 */
import { RigConnectError } from '../rig/errors.js';
import type { RigIdentity } from '../rig/driver.js';
import type { RigRecord, SessionRecord } from '../store/records.js';

export function requireSameRig(session: Pick<SessionRecord, 'id'>, ranOn: Pick<RigRecord, 'rigId' | 'port'> | undefined, now: RigIdentity): void {
  if (ranOn === undefined || ranOn.rigId === now.rigId) return;
  const where = now.port !== undefined ? ` on ${now.port}` : '';
  throw new RigConnectError(
    `session ${session.id} ran on rig ${ranOn.rigId}, but the board${where} is rig ${now.rigId}: resume it on its own rig (plug that board in and give its port as rig.port), or roll these dice in a new session on this one (analyze judges a die across sessions)`,
    { session: session.id, rig: now.rigId, ...(now.port !== undefined ? { port: now.port } : {}) },
  );
}
