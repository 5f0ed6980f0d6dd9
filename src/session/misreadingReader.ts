/**
 * A reader that misreads some faces as others, as real readers do now and
 * then (a calibration measures how often): a read of face f is turned into a
 * read of g with probability `misreads["f>g"]`, drawn from the session's random
 * source. With it comes the simulated calibration that measured it, whose
 * per-face upper bounds the session's verdicts allow for
 * (`dicerig demo --misreads 6>5=0.02`).
 */
import { InputError } from '../core/errors.js';
import { measuredMisreads, noMisreadMeasure, type MisreadAssumption } from '../stats/misreadRate.js';
import type { FaceRead, FaceReader } from '../vision/faceRead.js';

/** `from>to` -> probability. */
export type Misreads = Readonly<Record<string, number>>;

/** Held-back reads per face of the simulated calibration, unless the config says otherwise. */
export const DEFAULT_SIM_CALIBRATION_READS = 2000;

function pairs(misreads: Misreads): { from: string; to: string; p: number }[] {
  return Object.entries(misreads).map(([key, p]) => {
    const [from, to] = key.split('>') as [string, string];
    return { from, to, p };
  });
}

export function misreadingReader(reader: FaceReader, misreads: Misreads, random: () => number): FaceReader {
  const bySource = new Map<string, { to: string; p: number }[]>();
  for (const m of pairs(misreads)) bySource.set(m.from, [...(bySource.get(m.from) ?? []), { to: m.to, p: m.p }]);
  return {
    classifierVersion: reader.classifierVersion,
    // The wrapped reader's own tilt judgement still decides which checks the pipeline runs.
    ...(reader.judgesTilt !== undefined ? { judgesTilt: reader.judgesTilt } : {}),
    read(crop): FaceRead {
      const read = reader.read(crop);
      if (read.status !== 'read' || read.symbol === undefined) return read;
      const targets = bySource.get(read.symbol);
      if (targets === undefined) return read;
      let u = random();
      for (const t of targets) {
        if (u < t.p) return { ...read, symbol: t.to };
        u -= t.p;
      }
      return read;
    },
  };
}

/** The chance that a read of each face is turned into another. */
export function misreadRateOf(misreads: Misreads, face: string): number {
  return pairs(misreads).reduce((sum, m) => sum + (m.from === face ? m.p : 0), 0);
}

/**
 * The simulated reader's calibration: `reads` held-back dice of each face, each read as the session reads it (misread
 * with the reader's rates, then declined by what it read with `declines`' rates, drawn from `random`); a declined die
 * counts in neither the reads nor the misreads, as in a real calibration. The verdicts then allow for the upper
 * bounds of what it measured. Left out, the declines would hide that a reader which declines a face it reads right
 * but not the face it misreads it as misreads that face far more often among the reads it gives.
 */
export function simulatedCalibration(misreads: Misreads, faces: readonly string[], reads: number, random: () => number, declines: Readonly<Record<string, number>> = {}): MisreadAssumption {
  if (reads === 0) return noMisreadMeasure('the simulated reader misreads, but no calibration measured it (camera.misreadCalibration is 0)');
  const bySource = new Map<string, { to: string; p: number }[]>();
  for (const m of pairs(misreads)) bySource.set(m.from, [...(bySource.get(m.from) ?? []), { to: m.to, p: m.p }]);
  const declining = Object.values(declines).some((p) => p > 0);
  const counts = faces.map((face) => {
    let read = 0;
    let misread = 0;
    for (let i = 0; i < reads; i++) {
      // As misreadingReader draws it: one number picks whether, and as what, the face is misread.
      let u = random();
      let seen = face;
      for (const t of bySource.get(face) ?? []) {
        if (u < t.p) {
          seen = t.to;
          break;
        }
        u -= t.p;
      }
      // As decliningReader draws it: by what was read.
      const p = declines[seen] ?? 0;
      if (p > 0 && random() < p) continue;
      read++;
      if (seen !== face) misread++;
    }
    return { read, misread };
  });
  const what = declining ? `${reads} held-back dice per face, the ones it declined left out` : `${reads} held-back reads per face`;
  return measuredMisreads(`a simulated calibration of the simulated reader (${what})`, faces, counts);
}

/** Parses `6>5=0.02,1>2=0.01` (face or symbol > face or symbol = probability); a clear error naming the bad part. */
export function parseMisreads(text: string, faces: readonly string[]): Misreads {
  const out: Record<string, number> = {};
  for (const part of text.split(',').map((x) => x.trim()).filter((x) => x !== '')) {
    const m = /^([^=>\s]+)\s*>\s*([^=>\s]+)\s*=\s*([0-9.eE+-]+)$/.exec(part);
    if (m === null) throw new InputError(`--misreads: "${part}" is not FACE>READ_AS=PROBABILITY (e.g. 6>5=0.02).`);
    const [, from, to, text] = m as unknown as [string, string, string, string];
    const p = Number(text);
    for (const f of [from, to]) if (!faces.includes(f)) throw new InputError(`--misreads: "${f}" is not a face of these dice (${faces.join(', ')}).`);
    if (from === to) throw new InputError(`--misreads: ${from}>${to} reads a face as itself; name another face.`);
    if (!(Number.isFinite(p) && p >= 0 && p < 0.5)) throw new InputError(`--misreads: the probability of ${from}>${to} is ${text}; it must be at least 0 and below 0.5.`);
    const key = `${from}>${to}`;
    if (key in out) throw new InputError(`--misreads: ${key} is given twice.`);
    out[key] = p;
  }
  if (Object.keys(out).length === 0) throw new InputError('--misreads: give at least one FACE>READ_AS=PROBABILITY (e.g. 6>5=0.02).');
  for (const face of faces) {
    const total = misreadRateOf(out, face);
    if (!(total < 0.5)) throw new InputError(`--misreads: a ${face} is misread with probability ${total} in all; it must be below 0.5.`);
  }
  return out;
}
