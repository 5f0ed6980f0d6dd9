import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { angleBetween, arrowFace, arrowFromPattern, directionCandidates, MIN_OUTLINE_FIT, readArrow, standardD6Layout } from '../../src/vision/d6/direction.js';
import { D6_PATTERN_SYMMETRY_DEG } from '../../src/vision/d6/patterns.js';
import { defaultLocateOptions } from '../../src/vision/locate.js';
import { defaultCockedLimits, readFrame } from '../../src/vision/pipeline.js';

const FACES = ['1', '2', '3', '4', '5', '6'];
const opposite = (f: string): string => String(7 - Number(f));

describe('direction die: the seed rule', () => {
  it('takes the arrow from the 1, or from the 5 when a 1 or a 6 is up', () => {
    expect(FACES.map(arrowFace)).toEqual(['5', '1', '1', '1', '1', '5']);
  });

  it('uses a face layout that is a cube: four neighbours per face, never itself or its opposite, and adjacency both ways', () => {
    for (const f of FACES) {
      const around = standardD6Layout.neighbours[f] as readonly string[];
      expect([...around].sort()).toEqual(FACES.filter((g) => g !== f && g !== opposite(f)));
      for (const g of around) expect(standardD6Layout.neighbours[g]).toContain(f);
      // The arrow's face is always beside the top face, so the rule always has an answer.
      expect(arrowFromPattern(f) % 90).toBe(0);
    }
  });

  it('names one candidate per symmetric turn of the top face: two for a 2, 3 or 6, four for a 1, 4 or 5', () => {
    expect(directionCandidates('2', 10).candidatesDeg).toHaveLength(2);
    expect(directionCandidates('6', 10).candidatesDeg).toHaveLength(2);
    expect(directionCandidates('5', 10).candidatesDeg).toHaveLength(4);
    expect(directionCandidates('1', 10).candidatesDeg).toHaveLength(4);
    // With the pattern's +u axis at 10 degrees, a 3's arrow (the 1 beside its +u edge) is at 10 or 190.
    expect(directionCandidates('3', 10)).toEqual({ candidatesDeg: [10, 190], symmetryDeg: 180, axisDeg: 10 });
    expect(angleBetween(350, 10)).toBe(20);
  });
});

describe('direction die on the simulated camera', () => {
  it('puts the true arrow among the candidates read from the top face within 2 degrees, and withholds only the odd arrow of a 1 with a bent outline', () => {
    const SIZE = 72;
    const options = { locate: { ...defaultLocateOptions, expectedDieArea: SIZE * SIZE * 0.97 }, cocked: defaultCockedLimits, dieSizePx: SIZE, cropScale: 1.5 };
    const reader = new D6PipReader();
    const worst: Record<string, number> = {};
    const seen: Record<string, number> = {};
    const withheld: Record<string, number> = {};
    // Held-out lighting (MIN_OUTLINE_FIT was set on the other presets). These are the bench's frames:
    // before the outline check, one 1 among them was read 15 degrees off.
    for (let s = 0; s < 8; s++) {
      const cam = new SimulatedCamera({ seed: 77_000 + s, lighting: 'evening', channels: 6, dieSizePx: SIZE, cockedRate: 0.3 });
      const reference = cam.emptyPlatform();
      for (let t = 0; t < 12; t++) {
        const { image, truth } = cam.still();
        const result = readFrame(image, reference, cam.layout.channels, reader, options);
        for (const die of truth.dice) {
          const read = result.readings.find((r) => r.channel === die.channel)?.read;
          if (die.cocked || !read || read.status !== 'read' || read.symbol !== die.face) continue;
          seen[die.face] = (seen[die.face] ?? 0) + 1;
          const arrow = readArrow(read);
          if (arrow === undefined) {
            withheld[die.face] = (withheld[die.face] ?? 0) + 1;
            expect(read.details?.['outlineFit']).toBeLessThan(MIN_OUTLINE_FIT);
            continue;
          }
          expect(arrow.symmetryDeg).toBe(D6_PATTERN_SYMMETRY_DEG[die.face]);
          const error = Math.min(...arrow.candidatesDeg.map((a) => angleBetween(a, die.arrowDeg as number)));
          worst[die.face] = Math.max(worst[die.face] ?? 0, error);
        }
      }
    }
    for (const f of FACES) {
      expect(seen[f]).toBeGreaterThan(30);
      // Under 0.5 degrees on the tuning presets when written.
      expect(worst[f]).toBeLessThan(2);
    }
    // Only a 1's arrow (from its outline) can be withheld, and rarely.
    expect(Object.keys(withheld).filter((f) => f !== '1')).toEqual([]);
    expect((withheld['1'] ?? 0) / (seen['1'] as number)).toBeLessThan(0.05);
  });
});
