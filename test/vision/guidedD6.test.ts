import { describe, expect, it } from 'vitest';
import { d6Die } from '../../src/dice/catalogue.js';
import type { Point } from '../../src/core/image.js';
import { simCalibrationCamera } from '../../src/session/calibrationCameras.js';
import { sessionPipeline } from '../../src/session/sessionPipeline.js';
import type { ClusterView } from '../../src/vision/calibration/groupNaming.js';
import { runGuidedD6Check } from '../../src/vision/calibration/guidedD6.js';
import type { CalibrationCamera } from '../../src/vision/calibration/guidedThrows.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { d6Nets } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';

/** The simulated rig, remembering what each throw truly showed. */
function recordingCamera(face: 'top' | 'bottom'): { camera: CalibrationCamera; truths: { center: Point; label: string }[][] } {
  const sim = simCalibrationCamera({ seed: 31, lighting: 'studio', channels: 4, dicePerChannel: 2, dice: 'd6', dieSizePx: 72 });
  const truths: { center: Point; label: string }[][] = [];
  return {
    truths,
    camera: {
      description: `${sim.description}, seen as ${face}`,
      emptyPlatform: () => sim.emptyPlatform(),
      nextThrow: async (i) => {
        const taken = await sim.nextThrow(i);
        truths[i] = [...(taken.truth ?? [])];
        return taken;
      },
    },
  };
}

/** Runs the guided steps, a person naming each group by the face most of its pictures show (`slip`: group 1 named the next face instead). */
async function namedThrows(face: 'top' | 'bottom', slip = false) {
  const { camera, truths } = recordingCamera(face);
  let shown: readonly ClusterView[] = [];
  const result = await runGuidedD6Check({
    camera,
    throws: 12,
    dice: 8,
    reader: new D6PipReader(),
    pipeline: sessionPipeline('pips', 72),
    nets: d6Nets(shippedD6Net),
    face,
    seed: 3,
    log: () => undefined,
    showGroups: (clusters) => {
      shown = clusters;
      return Promise.resolve(new Map());
    },
    prompt: (question) => {
      const id = Number(/^Group (\d+):/.exec(question)?.[1]);
      const truth = shown.find((c) => c.id === id)?.truth ?? {};
      const name = Object.entries(truth).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'skip';
      return Promise.resolve(slip && id === 1 ? String((Number(name) % 6) + 1) : name);
    },
  });
  // Each labelled die with the face it truly shows (the simulated camera draws the top face).
  const pairs = result.throws.flatMap((t) =>
    t.dice.map((d) => {
      const c = { x: d.box.x + d.box.width / 2, y: d.box.y + d.box.height / 2 };
      const truth = truths[t.index]?.find((x) => Math.hypot(x.center.x - c.x, x.center.y - c.y) < 36)?.label;
      return { label: d.label, truth };
    }),
  );
  return { result, pairs, shown: () => shown };
}

describe('the guided D6 check', () => {
  it('labels each named die by the face it shows when the camera sees the top face', async () => {
    const { result, pairs } = await namedThrows('top');
    expect(result.classes).toEqual(['1', '2', '3', '4', '5', '6', 'cocked']);
    expect(pairs.length).toBeGreaterThan(60);
    expect(pairs.filter((p) => p.label === p.truth).length / pairs.length).toBeGreaterThanOrEqual(0.95);
  });

  it('seen from below, names a group as its pictures show it and labels its dice by the face on top, the opposite one', async () => {
    const { pairs } = await namedThrows('bottom');
    const faces = pairs.filter((p) => p.truth !== 'cocked');
    expect(faces.length).toBeGreaterThan(60);
    // The pictures show the face the camera sees; the labels record the other side, as a session records a roll.
    expect(faces.filter((p) => p.label === d6Die.opposite[p.truth as string]).length / faces.length).toBeGreaterThanOrEqual(0.95);
    expect(faces.filter((p) => p.label === p.truth)).toHaveLength(0);
    // A die named cocked stays cocked: it has no face on top to record.
    const cocked = pairs.filter((p) => p.truth === 'cocked');
    expect(cocked.length).toBeGreaterThan(0);
    expect(cocked.every((p) => p.label === 'cocked')).toBe(true);
  });

  it('lists every die of a group named wrong for the person to check, with what the pip counter read', async () => {
    const { result, shown } = await namedThrows('top', true);
    const first = shown().find((c) => c.id === 1) as ClusterView;
    const slipped = result.clusters.find((c) => c.id === 1)?.name as string;
    expect(Object.keys(first.truth ?? {})).not.toContain(slipped.replace('d6-', ''));
    const listed = result.doubtful.filter((d) => d.label === slipped.replace('d6-', ''));
    expect(listed).toHaveLength(first.size);
    for (const d of listed) expect(d.because).toMatch(/^the pip counter read [1-6]$|^the D6 networks read [1-6]$/);
  });
});
