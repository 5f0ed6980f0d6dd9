/**
 * A reader that declines some faces more than others, as real readers do
 * (issue 10: 6 % of 1s, 33 % of 6s on phone photos): a read of face f is
 * turned into a decline with probability `declines[f]`, drawn from the
 * session's random source. It shows what a face-dependent reader does to the
 * verdicts (`dicerig demo --declines 6=0.3,1=0.05`).
 */
import { InputError } from '../core/errors.js';
import type { FaceRead, FaceReader } from '../vision/faceRead.js';

export type Declines = Readonly<Record<string, number>>;

export function decliningReader(reader: FaceReader, declines: Declines, random: () => number): FaceReader {
  return {
    classifierVersion: reader.classifierVersion,
    // The wrapped reader's own tilt judgement still decides which checks the pipeline runs.
    ...(reader.judgesTilt !== undefined ? { judgesTilt: reader.judgesTilt } : {}),
    read(crop): FaceRead {
      const read = reader.read(crop);
      if (read.status !== 'read' || read.symbol === undefined) return read;
      const p = declines[read.symbol] ?? 0;
      if (!(p > 0) || random() >= p) return read;
      const { symbol: _seen, ...rest } = read;
      return { ...rest, status: 'unreadable', reason: `the simulated reader declines a ${read.symbol} with probability ${p}` };
    },
  };
}

/** Parses `6=0.3,1=0.05` (face or symbol = probability in [0, 1)); a clear error naming the bad part. */
export function parseDeclines(text: string, faces: readonly string[]): Declines {
  const out: Record<string, number> = {};
  for (const part of text.split(',').map((x) => x.trim()).filter((x) => x !== '')) {
    const m = /^([^=\s]+)\s*=\s*([0-9.eE+-]+)$/.exec(part);
    if (m === null) throw new InputError(`--declines: "${part}" is not FACE=PROBABILITY (e.g. 6=0.3,1=0.05).`);
    const face = m[1] as string;
    const p = Number(m[2]);
    if (!faces.includes(face)) throw new InputError(`--declines: "${face}" is not a face of these dice (${faces.join(', ')}).`);
    if (!(Number.isFinite(p) && p >= 0 && p < 1)) throw new InputError(`--declines: the probability of ${face} is ${m[2]}; it must be at least 0 and below 1.`);
    if (face in out) throw new InputError(`--declines: ${face} is given twice.`);
    out[face] = p;
  }
  if (Object.keys(out).length === 0) throw new InputError('--declines: give at least one FACE=PROBABILITY (e.g. 6=0.3,1=0.05).');
  return out;
}
