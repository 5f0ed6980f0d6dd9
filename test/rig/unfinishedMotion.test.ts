// A motion that did not finish, in every driver's words: a tumble's throw is void; a home has no throw (it runs
// before the first tumble, after a fault, and in `rig check`), so its message speaks of the tumbler's position.
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import { ErrorCode } from '../../src/rig/protocol/errorCodes.js';
import { motionClosedMessage, motionLostMessage, motionOverdueMessage, motionResetMessage, motionStoppedMessage, motionUnansweredError } from '../../src/rig/serial/messages.js';
import { SimulatedRig } from '../../src/rig/simulated/simulatedRig.js';

const serialMessages = (verb: string): string[] => [
  motionStoppedMessage('/dev/ttyACM0', verb, 7, ErrorCode.jam),
  motionOverdueMessage('/dev/ttyACM0', verb, 7, 6000),
  motionLostMessage('/dev/ttyACM0', verb, 7, 'the port closed'),
  motionResetMessage('/dev/ttyACM0', verb, 7, 'the board reset'),
  motionClosedMessage(verb, 7),
  motionUnansweredError('/dev/ttyACM0', verb, 7, 4).message,
];

describe('a motion that did not finish', () => {
  it('voids the throw of a tumble, and says a home may have left the tumbler short of rest, with no throw to void', () => {
    for (const m of serialMessages('tumble')) expect(m).toMatch(/The motion did not finish, so this throw is void\.$/);
    for (const m of serialMessages('home')) {
      expect(m).toMatch(/The home did not finish, so the tumbler may not be at rest\.$/);
      expect(m).not.toMatch(/throw/);
    }
  });

  it('says the same on the simulated rig', async () => {
    const rig = new SimulatedRig({ clock: new SimulatedClock() });
    await rig.connect();
    rig.injectFault('jam');
    const err = await rig.home().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(/^The simulated home \(seq \d+\) was stopped: the tumbler jammed .*\. The home did not finish, so the tumbler may not be at rest\.$/);
    await rig.close();
  });
});
