/**
 * What `rig check` says when a switch stops its home or its tumble. The drivers word a stopped motion for a session
 * (a tumble's "this throw is void", `rig/unfinishedMotion.ts`), but a check has no throw: what the user needs is which
 * switch, on which pin, and the fix the first-run guide gives for it.
 */
import { RigFaultError } from '../rig/errors.js';
import { PIN_MAP } from '../rig/protocol/pinMap.js';

const pin = (name: string): string => PIN_MAP.find((p) => p.name === name)?.pin ?? '?';

/**
 * The check's words for a failed step: switch advice for a home timeout or a limit hit, else the error's own message.
 * `firmata`: the rig runs StandardFirmata, whose settings are the host's (`rig check --set`, `rig.firmata`), not the board's.
 */
export function rigCheckFailure(e: unknown, firmata = false): string {
  if (!(e instanceof RigFaultError) || (e.fault !== 'home_timeout' && e.fault !== 'limit')) return e instanceof Error ? e.message : String(e);
  const { port, command, seq } = e.rig;
  const motion = `The ${command ?? (e.fault === 'limit' ? 'tumble' : 'home')}${seq !== undefined ? ` (seq ${seq})` : ''}${port !== undefined ? ` on ${port}` : ''}`;
  if (e.fault === 'home_timeout') {
    return (
      `${motion} failed: the home switch (pin ${pin('home_switch')}) did not close in time, so the tower was not seen at rest. ` +
      `Its lever must be held down by the tower at rest: move the bracket on the post, and check the switch's wires to ${pin('home_switch')} and GND (hardware/first-run.md).`
    );
  }
  return (
    `${motion} was stopped: the limit switch (pin ${pin('limit_switch')}) closed during the flip, so the tower swings too far. ` +
    `Lower flip_us by 50 µs steps (e.g. ${firmata ? '--set flip_us=2350, then rig.firmata.flip_us in the session config' : 'flip_us=2350'}) until it stops square, upside down (hardware/first-run.md).`
  );
}
