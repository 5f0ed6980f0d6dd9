import { describe, expect, it } from 'vitest';
import { rigCheckFailure } from '../../../src/cli/rigCheckAdvice.js';
import { RigFaultError } from '../../../src/rig/errors.js';
import { ErrorCode } from '../../../src/rig/protocol/errorCodes.js';
import { motionStoppedMessage, serialCtx } from '../../../src/rig/serial/messages.js';

/** The error the serial driver rejects a motion with when the board stops it (motionSupervisor.motionFailed). */
const stopped = (verb: string, code: number, kind: 'home_timeout' | 'limit' | 'jam'): RigFaultError =>
  new RigFaultError(motionStoppedMessage('/dev/ttyACM0', verb, 7, code), kind, true, serialCtx('/dev/ttyACM0', verb, 7), code);

describe('rig check failures', () => {
  it('points a home timeout at the home switch, its pin and the bracket, with no throw to void', () => {
    const text = rigCheckFailure(stopped('home', ErrorCode.home_timeout, 'home_timeout'));
    expect(text).toBe(
      'The home (seq 7) on /dev/ttyACM0 failed: the home switch (pin D3) did not close in time, so the tower was not seen at rest. ' +
        "Its lever must be held down by the tower at rest: move the bracket on the post, and check the switch's wires to D3 and GND (hardware/first-run.md).",
    );
    expect(text).not.toMatch(/throw is void/);
  });

  it('points a limit hit at the limit switch and a lower flip_us', () => {
    const text = rigCheckFailure(stopped('tumble', ErrorCode.limit, 'limit'));
    expect(text).toContain('The tumble (seq 7) on /dev/ttyACM0 was stopped: the limit switch (pin D2) closed during the flip');
    expect(text).toContain('Lower flip_us by 50 µs steps');
    expect(text).not.toMatch(/throw is void/);
  });

  it('tells a Firmata rig to lower flip_us where its settings live: rig check --set and the session config, not the board', () => {
    const text = rigCheckFailure(stopped('tumble', ErrorCode.limit, 'limit'), true);
    expect(text).toContain('e.g. --set flip_us=2350, then rig.firmata.flip_us in the session config');
    expect(rigCheckFailure(stopped('tumble', ErrorCode.limit, 'limit'))).toContain('(e.g. flip_us=2350)');
  });

  it('leaves other failures in the driver\'s words', () => {
    const jam = stopped('tumble', ErrorCode.jam, 'jam');
    expect(rigCheckFailure(jam)).toBe(jam.message);
  });
});
