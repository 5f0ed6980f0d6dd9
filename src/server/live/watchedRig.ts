/** The rig as the server hands it to a session: each tumble is announced (throw started) before the rig moves. */
import type { RigDriver } from '../../rig/driver.js';

export function watchedRig(rig: RigDriver, announce: () => void): RigDriver {
  return new Proxy(rig, {
    get: (target, prop, receiver) => {
      if (prop === 'tumble') {
        return () => {
          announce();
          return target.tumble();
        };
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
