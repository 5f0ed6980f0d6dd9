import { describe, expect, it, vi } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import { SimulatedClock } from '../../src/core/clock.js';
import { getDieType } from '../../src/dice/catalogue.js';
import { SimThrowCamera } from '../../src/session/simThrowCamera.js';
import { SimulatedDice } from '../../src/session/simulatedDice.js';
import { seededRandom } from '../../src/stats/random.js';

describe('the simulated camera at rest as a throw camera', () => {
  it('renders only the throws the simulated dice keep, not the plans they turn down', async () => {
    const d6 = getDieType('d6');
    // A rig favouring the six on four dice turns down most planned throws: rendering each plan cost a render
    // (15-30 ms) per plan, three or four a kept throw, and made such sessions four times slower.
    const dice = new SimulatedDice([{ type: d6 }, { type: d6 }, { type: d6 }, { type: d6 }], seededRandom(5), { symbol: '6', excess: 0.25 });
    const camera = new SimulatedCamera({ seed: 5, channels: 4, dice: 'd6' });
    const renders = vi.spyOn(camera as unknown as { renderFrame: (...a: unknown[]) => unknown }, 'renderFrame');
    const clock = new SimulatedClock(0);
    const throwCamera = new SimThrowCamera({ camera, dice, clock, frames: 'rest' });
    const seen: string[][] = [];
    for (let t = 0; t < 6; t++) {
      const frames: Uint8Array[] = [];
      for await (const frame of throwCamera.watch(clock.now(), { durationMs: 800 })) {
        frames.push(frame.image.data);
        if (frames.length === 3) break;
      }
      // The frames of one throw are one rest image, and its truth is the kept plan's.
      expect(frames[1]).toBe(frames[0]);
      seen.push(throwCamera.lastTruth!.dice.map((d) => d.face));
    }
    expect(dice.rejected).toBeGreaterThan(0);
    expect(renders).toHaveBeenCalledTimes(6);
    expect(seen.every((faces) => faces.length === 4)).toBe(true);
  });
});
