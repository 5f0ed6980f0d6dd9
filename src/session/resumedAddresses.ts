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

/** The stored config at the addresses its last `hardware-moved` event left (the stored config's own without one). */
export function movedConfig(config: SessionConfig, events: readonly EventRecord[]): SessionConfig {
  const last = events.filter((e) => e.kind === HARDWARE_MOVED).at(-1)?.detail as Partial<MovedAddresses> | null | undefined;
  if (last === undefined || last === null) return config;
  const { port: _old, ...rig } = config.rig;
  const moved: SessionConfig = { ...config, rig: typeof last.rigPort === 'string' ? { ...rig, port: last.rigPort } : rig };
  return typeof last.cameraDevice === 'string' && moved.camera.source === 'device' ? { ...moved, camera: { ...moved.camera, device: last.cameraDevice } } : moved;
}

/** The config keys a config given with `--resume` may move, and say the session should be found elsewhere. */
export const ADDRESS_KEYS = ['rig.port', 'camera.device'] as const;

/** The stored config with the given config's rig port and camera device (same driver and camera source), and what moved. */
export function withGivenAddresses(stored: SessionConfig, given: SessionConfig): { config: SessionConfig; moved: string[] } {
  let config = stored;
  const moved: string[] = [];
  const shown = (v: string | undefined): string => v ?? 'unset (the one board plugged in)';
  if (given.rig.driver === stored.rig.driver && given.rig.port !== stored.rig.port) {
    moved.push(`rig.port ${shown(given.rig.port)} (it ran on ${shown(stored.rig.port)})`);
    const { port: _old, ...rig } = config.rig;
    config = { ...config, rig: given.rig.port === undefined ? rig : { ...rig, port: given.rig.port } };
  }
  if (given.camera.source === 'device' && config.camera.source === 'device' && given.camera.device !== config.camera.device) {
    moved.push(`camera.device ${given.camera.device} (it ran on ${config.camera.device})`);
    config = { ...config, camera: { ...config.camera, device: given.camera.device } };
  }
  return { config, moved };
}

/** The line that says which addresses a resumed session takes from the config given. */
export function movedNotice(sessionId: number, moved: readonly string[]): string {
  return `session ${sessionId} takes from this config where its hardware is now: ${moved.join(', ')}; every other setting stays the session's`;
}
