import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SKRSContext2D, Canvas } from '@napi-rs/canvas';
import { drawnReach, SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import type { ThrowPath } from '../../src/camera/sim/throwPath.js';

describe('the simulated camera', () => {
  it('draws byte for byte the frames it drew before its capture was made faster, moving and still, with and without optical blur, on fresh sensor memory or a released camera\'s', async () => {
    const hash = createHash('sha256');
    // The first camera draws on the sensor memory of a released one whose light had glare, and each next camera on the
    // last one's: what the memory held must not show.
    const glaring = new SimulatedCamera({ seed: 6, lighting: 'desk-lamp', channels: 3 });
    glaring.emptyPlatform();
    glaring.release();
    // Three looks: no blur (studio), a pass of blur (desk lamp) and more (dim); two dice a channel, some cocked or touching.
    for (const [seed, lighting, dice] of [[7, 'studio', 'd6'], [8, 'dim', 'red'], [9, 'desk-lamp', 'green']] as const) {
      const cam = new SimulatedCamera({ seed, lighting, channels: 3, dice, cockedRate: 0.2, dicePerChannel: 2, touchingRate: 0.5 });
      hash.update(cam.emptyPlatform().data);
      for await (const f of cam.throwSequence().frames) hash.update(f.image.data);
      hash.update(cam.still().image.data);
      hash.update(cam.emptyPlatform().data);
      // The next camera draws on this one's sensor memory: frames must not depend on what it held.
      cam.release();
      expect(() => cam.still()).toThrow(/used after it was released/);
    }
    // Computed by the camera of commit 9a11e87, which read the whole frame through one formula
    // (/work/data/exp/s63/frameHash.mts with ROOT at that checkout).
    expect(hash.digest('hex')).toBe('978f36fe9045a8565d2ff8df1402d6e793658073a996da868b027d100ddf0083');
  });

  it('renders a frame of a throw only when its image is asked for, and draws it as it would have in turn, whatever was read before', async () => {
    // Two cameras alike: one reads every frame of its throws in order; the other collects them, reads every third one
    // last to first, and so renders only those. The frames read, and the next throws', are the same pixels.
    // Two throws (the second shows a throw after a picky one is unchanged), two channels: a frame is drawn whole whatever it shows.
    const options = { seed: 41, lighting: 'desk-lamp', dice: ['d6', 'red'], channels: 2, cockedRate: 0.3 } as const;
    const inOrder = new SimulatedCamera(options);
    const picky = new SimulatedCamera(options);
    let renders = 0;
    const inside = picky as unknown as { renderFrame(...args: unknown[]): unknown };
    const render = inside.renderFrame.bind(picky);
    inside.renderFrame = (...args: unknown[]) => {
      renders++;
      return render(...args);
    };
    for (let t = 0; t < 2; t++) {
      const all: Buffer[] = [];
      for await (const f of inOrder.throwSequence().frames) all.push(Buffer.from(f.image.data));
      const frames = [];
      for await (const f of picky.throwSequence().frames) frames.push(f);
      expect(frames.length).toBe(all.length);
      const before = renders;
      const picked = frames.filter((f) => f.index % 3 === 0).reverse();
      for (const f of picked) expect(Buffer.from(f.image.data).equals(all[f.index] as Buffer)).toBe(true);
      expect(renders - before).toBe(picked.length);
      // Asked for again: the same image, not a second render.
      expect(picked[0]?.image).toBe(picked[0]?.image);
      expect(renders - before).toBe(picked.length);
    }
    expect(Buffer.from(picky.still().image.data).equals(Buffer.from(inOrder.still().image.data))).toBe(true);
  });

  it('draws nothing beyond the squares it reads back, whatever the light, the die, its lean or its motion', () => {
    // The camera's canvas and plans, reached past TypeScript's privacy: what it drew, pixel for pixel, against the
    // squares it reads back (drawnReach). Anything drawn outside them would be missing from its frames.
    interface Inside {
      ctx: SKRSContext2D;
      base: Canvas;
      planThrow(): { truth: { sizePx: number }; path: ThrowPath }[];
      renderFrame(planned: unknown, frame: number): unknown;
    }
    const [width, height] = [1280, 720];
    let frames = 0;
    for (const [seed, lighting, dice, size] of [[31, 'window', 'd6', 110], [32, 'desk-lamp', 'red', 72], [33, 'dim', 'green', 90], [34, 'evening', 'd6', 60]] as const) {
      const cam = new SimulatedCamera({ seed, lighting, channels: 4, dice, cockedRate: 0.5, dicePerChannel: 2, touchingRate: 0.5, dieSizePx: size });
      const inside = cam as unknown as Inside;
      inside.ctx.drawImage(inside.base, 0, 0);
      const empty = inside.ctx.getImageData(0, 0, width, height).data;
      const planned = inside.planThrow();
      const steps = Math.max(...planned.map((d) => d.path.steps));
      for (const f of [0, 1, Math.floor(steps / 2), steps - 1, Number.POSITIVE_INFINITY]) {
        // The camera puts the platform back only in the squares it reads, so the canvas is emptied here first: what
        // this frame drew, wherever it drew it, is then all that differs from the empty platform.
        inside.ctx.drawImage(inside.base, 0, 0);
        inside.renderFrame(planned, f);
        frames++;
        const drawn = inside.ctx.getImageData(0, 0, width, height).data;
        const squares = planned.map((d) => {
          const last = d.path.steps;
          const pose = d.path.at(Math.min(f, last));
          const next = f < last ? d.path.at(f + 1) : pose;
          return { x: pose.x, y: pose.y, r: drawnReach(d.truth.sizePx, Math.hypot(next.x - pose.x, next.y - pose.y)) };
        });
        let outside = 0;
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const i = (y * width + x) * 4;
            if (drawn[i] === empty[i] && drawn[i + 1] === empty[i + 1] && drawn[i + 2] === empty[i + 2]) continue;
            if (!squares.some((q) => x >= Math.floor(q.x - q.r) && x < Math.ceil(q.x + q.r) && y >= Math.floor(q.y - q.r) && y < Math.ceil(q.y + q.r))) outside++;
          }
        }
        expect(outside, `${lighting} ${dice} ${size} px, frame ${f}`).toBe(0);
      }
    }
    expect(frames).toBe(20);
  });
});
