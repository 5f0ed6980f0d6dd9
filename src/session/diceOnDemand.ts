/**
 * A throw event whose `dice` are worked out when a listener first reads them (`RunnerDeps.diceOnDemand`): a progress
 * display without a terminal prints them every 250 throws, while working them out costs each undecided die a
 * projection after every throw. They are as of the throw, read then or later, until the next throw is stored: the
 * monitors move on with it, so a read after it throws rather than give another throw's statuses.
 */
import type { DieStatus, SessionEvent } from './events.js';

type ThrowEvent = Extract<SessionEvent, { type: 'throw' }>;

export function withDiceOnDemand(event: ThrowEvent, statuses: () => DieStatus[], throwStored: () => number): ThrowEvent {
  const index = throwStored();
  let dice: DieStatus[] | undefined;
  // The property stays where it is among the event's keys: only its value waits.
  return Object.defineProperty(event, 'dice', {
    enumerable: true,
    get: (): DieStatus[] => {
      if (dice === undefined && throwStored() !== index) throw new Error(`the dice statuses of throw ${event.index} were read after throw ${throwStored()} was stored`);
      return (dice ??= statuses());
    },
  });
}
