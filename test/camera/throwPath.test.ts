import { describe, expect, it } from 'vitest';
import { ThrowPath } from '../../src/camera/sim/throwPath.js';
import type { DiePose } from '../../src/camera/sim/dieArt.js';
import { seededRandom } from '../../src/stats/random.js';

const rect = { x: 100, y: 50, width: 300, height: 600 };
const rest: DiePose = { x: 250, y: 350, angle: 0.3, tilt: 0, size: 72, face: '4', sideFace: '2' };
const faces = ['1', '2', '3', '4', '5', '6'];

describe('a simulated die’s path to rest', () => {
  it('draws every number when planned, so making its poses (or not) leaves the random source where it was', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const a = seededRandom(seed);
      const b = seededRandom(seed);
      const built = ThrowPath.plan(rest, rect, faces, a);
      ThrowPath.plan(rest, rect, faces, b);
      for (let f = 0; f <= built.steps; f++) built.at(f);
      expect(a()).toBe(b());
    }
  });

  it('moves at least 2.5 px a frame until it rests, then stays exactly at rest, inside the channel', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const path = ThrowPath.plan(rest, rect, faces, seededRandom(seed));
      expect(path.steps).toBeGreaterThanOrEqual(8);
      expect(path.steps).toBeLessThanOrEqual(22);
      for (let f = 0; f < path.steps; f++) {
        const [p, q] = [path.at(f), path.at(f + 1)];
        expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeGreaterThanOrEqual(2.5);
        expect(p.x).toBeGreaterThan(rect.x);
        expect(p.x).toBeLessThan(rect.x + rect.width);
      }
      expect(path.at(path.steps)).toBe(rest);
      expect(path.at(path.steps + 5)).toBe(rest);
    }
  });

  it('shows the rest face in the frames just before rest and tumbles through the die’s faces earlier', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const path = ThrowPath.plan(rest, rect, faces, seededRandom(seed));
      // At least the last 2 frames before rest settle on the rest face, lying as the rest pose lies.
      for (const f of [path.steps - 1, path.steps - 2]) expect(path.at(f)).toMatchObject({ face: '4', tilt: 0 });
      for (let f = 0; f < path.steps; f++) seen.add(path.at(f).face);
    }
    expect([...seen].sort()).toEqual(faces);
  });
});
