/**
 * How a simulated die moves before it comes to rest: poses from the throw's first frame to rest, built backwards from
 * the rest pose. Each earlier frame is displaced further (the die decelerates), at least 2.5 px and 3° per frame, so
 * "still" in the truth means exactly still.
 *
 * The random numbers are drawn when the throw is planned, in the order they always were, but the poses are made only
 * when a frame before rest is drawn. Most planned throws never need them: a session reading rest frames draws only the
 * rest pose, and simulated dice favouring a face turn down dozens of plans for each one they keep.
 */
import type { RandomSource } from '../../stats/random.js';
import type { DiePose } from './dieArt.js';

interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export class ThrowPath {
  private poses: readonly DiePose[] | undefined;

  /** `steps`: frames before the rest frame (the rest frame's index), the last `settling` of them showing the rest face. */
  private constructor(
    readonly rest: DiePose,
    private readonly rect: Rect,
    private readonly faces: readonly string[],
    readonly steps: number,
    private readonly settling: number,
    private readonly draws: Float64Array,
  ) {}

  /** Draws from `random` every number the path needs, as many and in the order the poses use them. */
  static plan(rest: DiePose, rect: Rect, faces: readonly string[], random: RandomSource): ThrowPath {
    const tumbling = 6 + Math.floor(random() * 10);
    const settling = 2 + Math.floor(random() * 6);
    const steps = tumbling + settling;
    // Per frame: step, direction, turn and its sign; a tumbling frame also its face and tilt.
    const draws = new Float64Array(4 * steps + 2 * tumbling);
    for (let i = 0; i < draws.length; i++) draws[i] = random();
    return new ThrowPath(rest, rect, faces, steps, settling, draws);
  }

  /** The pose at frame `f` of the throw (0: its first frame; `steps` and later: at rest). */
  at(f: number): DiePose {
    if (f >= this.steps) return this.rest;
    this.poses ??= this.build();
    return this.poses[f] as DiePose;
  }

  private build(): DiePose[] {
    const { rest, rect, faces, draws } = this;
    const path: DiePose[] = [rest];
    let cur = rest;
    let d = 0;
    for (let k = 0; k < this.steps; k++) {
      const step = 2.5 + 1.2 * Math.pow(k, 1.5) + (draws[d++] as number) * 2;
      const dir = (draws[d++] as number) * Math.PI * 2;
      const turn = ((3 + (draws[d++] as number) * 4 + k * 2) * Math.PI) / 180;
      let x = cur.x + Math.cos(dir) * step;
      let y = cur.y + Math.sin(dir) * step;
      const m = rest.size * 0.6;
      if (x < rect.x + m || x > rect.x + rect.width - m) x = cur.x - Math.cos(dir) * step;
      if (y < rect.y + m || y > rect.y + rect.height - m) y = cur.y - Math.sin(dir) * step;
      const tumbling = k >= this.settling;
      cur = {
        ...cur,
        x,
        y,
        angle: cur.angle + ((draws[d++] as number) < 0.5 ? -turn : turn),
        face: tumbling ? (faces[Math.floor((draws[d++] as number) * faces.length)] as string) : rest.face,
        tilt: tumbling ? (draws[d++] as number) * 0.6 : rest.tilt,
      };
      path.unshift(cur);
    }
    return path;
  }
}
