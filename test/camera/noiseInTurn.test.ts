import { describe, expect, it } from 'vitest';
import { noiseInTurn } from '../../src/camera/sim/noiseInTurn.js';

describe('the sensor noise read in turn', () => {
  it('gives, read in order, the values a stride from k0 jumps to, for any start and odd stride', () => {
    const noise = Float32Array.from({ length: 1 << 16 }, (_, i) => Math.sin(i * 1.7) * 5);
    const into = new Float32Array(noise.length);
    const mask = noise.length - 1;
    for (const [k0, stride] of [[0, 1], [12345, 7919], [65535, 9917], [40000, 8001], [1, 65535]] as const) {
      let u = noiseInTurn(noise, k0, stride, into);
      let k: number = k0;
      for (let n = 0; n < 200_000; n++) {
        k = (k + stride) & mask;
        u = (u + 1) & mask;
        if (into[u] !== noise[k]) expect({ k0, stride, n, inTurn: into[u] }).toEqual({ k0, stride, n, inTurn: noise[k] });
      }
    }
  });

  it('refuses an even stride, a table whose length is not a power of two, or one to fill of another length', () => {
    expect(() => noiseInTurn(new Float32Array(16), 0, 8, new Float32Array(16))).toThrow(/odd stride \(8\)/);
    expect(() => noiseInTurn(new Float32Array(12), 0, 3, new Float32Array(12))).toThrow(/power-of-two table of 12/);
    expect(() => noiseInTurn(new Float32Array(16), 0, 3, new Float32Array(8))).toThrow(/to fill \(8\)/);
  });
});
