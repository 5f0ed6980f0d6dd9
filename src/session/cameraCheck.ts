/**
 * One look at a live camera as serve starts. A camera is opened by a process that reads it in the background, so
 * one missing or busy says so only when a throw is watched: the first viewer's roll would be the first to know.
 */
import type { Clock } from '../core/clock.js';
import type { ThrowCamera } from './throwCamera.js';

/** Why no frame came from the camera within `timeoutMs` (its own message names the device and what to do), or undefined once one came. */
export async function cameraProblem(camera: ThrowCamera, clock: Clock, timeoutMs = 5000): Promise<string | undefined> {
  const frames = camera.watch(clock.now(), { durationMs: 0 })[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
  try {
    const first = await Promise.race([frames.next(), late]);
    if (first === 'late') return `${camera.description} gave no frame in ${timeoutMs / 1000} s: check that it is plugged in and that no other program is using it.`;
    return first.done === true ? `${camera.description} gave no frame: its stream ended.` : undefined;
  } catch (e) {
    return (e as Error).message;
  } finally {
    clearTimeout(timer);
    void frames.return?.(undefined)?.catch(() => undefined);
  }
}
