import { StoreError, type StoreErrorContext } from './errors.js';
import { THROW_STATUSES, type ThrowInput } from './records.js';

/**
 * Checks a throw before anything is written, so the common mistakes get a
 * sentence rather than a constraint name. An `ok` throw is one that counts: it
 * must have rolls, each read (a symbol) and not cocked; anything else is
 * `rerolled` (or `void`) with a reason.
 */
export function checkThrowInput(t: ThrowInput, where: StoreErrorContext): void {
  const fail = (problem: string): never => {
    throw new StoreError(`Cannot record the throw: ${problem}.`, where);
  };
  if (!Number.isFinite(t.startedAt) || !Number.isFinite(t.endedAt)) fail('its start and end times must be finite numbers (milliseconds since the epoch)');
  if (t.endedAt < t.startedAt) fail(`it ends (${t.endedAt}) before it starts (${t.startedAt})`);
  if (!THROW_STATUSES.includes(t.status)) fail(`status "${String(t.status)}" is not one of ${THROW_STATUSES.join(', ')}`);
  if (t.status !== 'ok' && (t.why === undefined || t.why.trim() === '')) fail(`a ${t.status} throw needs a reason (why)`);
  if (t.status === 'ok' && t.rolls.length === 0) fail('an ok throw has no rolls');
  t.rolls.forEach((r, i) => {
    const which = `roll ${i + 1}`;
    if (!Number.isSafeInteger(r.dieId)) fail(`${which} has no die id`);
    if (r.channel !== undefined && !(Number.isSafeInteger(r.channel) && r.channel >= 0)) fail(`${which} has channel ${r.channel}; channels are whole numbers from 0`);
    if (r.confidence !== undefined && !(r.confidence >= 0 && r.confidence <= 1)) fail(`${which} has confidence ${r.confidence}; it must be between 0 and 1`);
    const unresolved = r.resolution === 'unresolved';
    if (r.resolution !== undefined && r.resolution !== 'read' && !unresolved) fail(`${which} has resolution "${String(r.resolution)}"; it is read or unresolved`);
    if (unresolved && (r.symbol !== undefined || r.faceId !== undefined)) fail(`${which} is unresolved, so it has no face or symbol`);
    if (unresolved && r.cocked === true) fail(`${which} is cocked, so it is re-tumbled, not unresolved`);
    if (t.status === 'ok' && !unresolved && (r.symbol === undefined || r.symbol === '')) fail(`${which} was not read (no symbol), so the throw cannot be ok; record it as rerolled`);
    if (t.status === 'ok' && r.cocked === true) fail(`${which} is cocked, so the throw cannot be ok; record it as rerolled`);
  });
}
