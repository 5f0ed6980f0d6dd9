import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';

describe('the simulated camera', () => {
  it('draws byte for byte the frames it drew before its capture was made faster, moving and still, with and without optical blur', async () => {
    const hash = createHash('sha256');
    // Three looks: no blur (studio), a pass of blur (desk lamp) and more (dim); two dice a channel, some cocked or touching.
    for (const [seed, lighting, dice] of [[7, 'studio', 'd6'], [8, 'dim', 'red'], [9, 'desk-lamp', 'green']] as const) {
      const cam = new SimulatedCamera({ seed, lighting, channels: 3, dice, cockedRate: 0.2, dicePerChannel: 2, touchingRate: 0.5 });
      hash.update(cam.emptyPlatform().data);
      for await (const f of cam.throwSequence().frames) hash.update(f.image.data);
      hash.update(cam.still().image.data);
      hash.update(cam.emptyPlatform().data);
    }
    // Computed by the camera of commit 9a11e87, which read the whole frame through one formula
    // (/work/data/exp/s63/frameHash.mts with ROOT at that checkout).
    expect(hash.digest('hex')).toBe('978f36fe9045a8565d2ff8df1402d6e793658073a996da868b027d100ddf0083');
  });
});
