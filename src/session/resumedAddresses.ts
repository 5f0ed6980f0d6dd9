/**
 * Where a session's hardware is plugged in is not how the session runs. A board that comes back from a power cut as
 * /dev/ttyACM1, or a camera renumbered /dev/video2, left a session that could not be resumed: it ran with its stored
 * config, and a config given with `--resume` was only checked. Its addresses are now taken from the config given
 * (and said so); everything else still comes from the stored config, and the board must be the session's rig.
 */
import type { EventRecord } from '../store/records.js';
import type { SessionConfig } from './config.js';

/** The event a resumed run stores when it moved the session's hardware, so later resumes find it there too. */
export const HARDWARE_MOVED = 'hardware-moved';

/** What a `hardware-moved` event records: the addresses the session runs with from then on. */
export interface MovedAddresses {
  readonly rigPort: string | null;
  readonly cameraDevice: string | null;
}

/** The addresses of a config, as a `hardware-moved` event records them. */
export function addressesOf(config: SessionConfig): MovedAddresses {
  return { rigPort: config.rig.port ?? null, cameraDevice: config.camera.source === 'device' ? config.camera.device : null };
}

/** `config` at these addresses: a port given is set, a null port removed (the one board plugged in); a device given is set. */
function atAddresses(config: SessionConfig, to: Partial<MovedAddresses>): SessionConfig {
  let moved = config;
  if (to.rigPort !== undefined) {
    const { port: _old, ...rig } = moved.rig;
    moved = { ...moved, rig: to.rigPort === null ? rig : { ...rig, port: to.rigPort } };
  }
  if (typeof to.cameraDevice === 'string' && moved.camera.source === 'device') moved = { ...moved, camera: { ...moved.camera, device: to.cameraDevice } };
  return moved;
}

/** The stored config at the addresses its last `hardware-moved` event left (the stored config's own without one). */
export function movedConfig(config: SessionConfig, events: readonly EventRecord[]): SessionConfig {
  const last = events.filter((e) => e.kind === HARDWARE_MOVED).at(-1)?.detail as Partial<MovedAddresses> | null | undefined;
  if (last === undefined || last === null) return config;
  return atAddresses(config, { ...(typeof last.rigPort === 'string' || last.rigPort === null ? { rigPort: last.rigPort } : {}), ...(typeof last.cameraDevice === 'string' ? { cameraDevice: last.cameraDevice } : {}) });
}

/** The stored config with the given config's rig port and camera device (same driver and camera source), and what moved. */
export function withGivenAddresses(stored: SessionConfig, given: SessionConfig): { config: SessionConfig; moved: string[] } {
  const to: { rigPort?: string | null; cameraDevice?: string } = {};
  const moved: string[] = [];
  const shown = (v: string | undefined): string => v ?? 'unset (the one board plugged in)';
  if (given.rig.driver === stored.rig.driver && given.rig.port !== stored.rig.port) {
    moved.push(`rig.port ${shown(given.rig.port)} (it ran on ${shown(stored.rig.port)})`);
    to.rigPort = given.rig.port ?? null;
  }
  if (given.camera.source === 'device' && stored.camera.source === 'device' && given.camera.device !== stored.camera.device) {
    moved.push(`camera.device ${given.camera.device} (it ran on ${stored.camera.device})`);
    to.cameraDevice = given.camera.device;
  }
  return { config: atAddresses(stored, to), moved };
}

/** The line that says which addresses a resumed session takes from the config given. */
export function movedNotice(sessionId: number, moved: readonly string[]): string {
  return `session ${sessionId} takes from this config where its hardware is now: ${moved.join(', ')}; every other setting stays the session's`;
}
