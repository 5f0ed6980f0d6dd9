import { describe, expect, it } from 'vitest';
import { decliningReader } from '../../src/session/decliningReader.js';
import { misreadingReader } from '../../src/session/misreadingReader.js';
import { createRgb } from '../../src/core/image.js';
import type { FaceReader } from '../../src/vision/faceRead.js';

const crop = createRgb(4, 4);
const reader = (judgesTilt: boolean | undefined): FaceReader => ({
  classifierVersion: 'inner/1',
  ...(judgesTilt !== undefined ? { judgesTilt } : {}),
  read: () => ({ status: 'read', symbol: '6', confidence: 0.99, classifierVersion: 'inner/1', crop }),
});

describe("the simulated camera's misreading and declining readers", () => {
  it("keep the wrapped reader's own tilt judgement, which decides the checks the pipeline runs, and read through it", () => {
    for (const judges of [true, false, undefined]) {
      const declining = decliningReader(reader(judges), { '6': 0.5 }, () => 0.9);
      const misreading = misreadingReader(reader(judges), { '6>5': 0.5 }, () => 0.9);
      expect(declining.judgesTilt).toBe(judges);
      expect(misreading.judgesTilt).toBe(judges);
      // 0.9 is over both probabilities: the wrapped read passes unchanged.
      expect(declining.read({ image: crop, sizePx: 4 })).toMatchObject({ status: 'read', symbol: '6' });
      expect(misreading.read({ image: crop, sizePx: 4 })).toMatchObject({ status: 'read', symbol: '6' });
    }
    expect(decliningReader(reader(true), { '6': 0.5 }, () => 0.1).read({ image: crop, sizePx: 4 })).toMatchObject({ status: 'unreadable' });
    expect(misreadingReader(reader(true), { '6>5': 0.5 }, () => 0.1).read({ image: crop, sizePx: 4 })).toMatchObject({ status: 'read', symbol: '5' });
  });
});
