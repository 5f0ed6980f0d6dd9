import { InvalidArgumentError } from 'commander';
import { probabilityFromLog } from '../core/format.js';

/** Commander argument parsers that reject bad numbers with a message naming the expected form. */
export function probabilityArg(value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x <= 0 || x >= 1) throw new InvalidArgumentError(`expected a number between 0 and 1 (exclusive), got "${value}".`);
  return x;
}

/** A rate that may be none at all but not every time: 0 <= x < 1 (a cocked-die rate of 1 would leave no face to read). */
export function rateArg(value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x < 0 || x >= 1) throw new InvalidArgumentError(`expected a number from 0 (none) up to but not including 1, got "${value}".`);
  return x;
}

/** The horizontal fields of view a camera's --hfov may be, degrees. */
export const HFOV_RANGE = { min: 20, max: 120 } as const;

/**
 * A camera's horizontal field of view, degrees. It sets the pinhole focal length the top face is found by
 * (`vision/learned/topFace.ts`): past about 120 degrees a lens is a fisheye, which a pinhole model misplaces (at 179 the
 * focal length is nearly nothing), and under about 20 a telephoto would need to stand metres above the platform.
 */
export function fieldOfViewArg(value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x < HFOV_RANGE.min || x > HFOV_RANGE.max) {
    throw new InvalidArgumentError(`expected a webcam's horizontal field of view, ${HFOV_RANGE.min} to ${HFOV_RANGE.max} degrees (a pinhole lens; most webcams are 50-90), got "${value}".`);
  }
  return x;
}

/** The whole number written (digits only, spaces around allowed), or NaN. */
function wholeNumber(value: string): number {
  const x = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(x) ? x : Number.NaN;
}

export function positiveIntArg(value: string): number {
  const x = wholeNumber(value);
  if (!(x >= 1)) throw new InvalidArgumentError(`expected a whole number of at least 1, got "${value}".`);
  return x;
}

export function nonNegativeIntArg(value: string): number {
  const x = wholeNumber(value);
  if (!(x >= 0)) throw new InvalidArgumentError(`expected a whole number of at least 0, got "${value}".`);
  return x;
}

/** A parser for a whole number in [min, max] that names the option when it rejects a value. */
export function wholeNumberArg(option: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = wholeNumber(value);
    if (!(n >= min && n <= max)) throw new InvalidArgumentError(`${option} must be a whole number from ${min} to ${max}.`);
    return n;
  };
}

export function positiveNumberArg(value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}".`);
  return x;
}

/**
 * JSON for machines: Infinity and NaN (which JSON lacks) become strings, typed arrays become arrays,
 * and a p-value below the normal doubles is written from its log beside it (`probabilityFromLog`).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    function (this: Record<string, unknown>, key, v: unknown) {
      if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
      if (typeof v === 'number' && key === 'p' && typeof this.logP === 'number') return probabilityFromLog(v, this.logP);
      if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
      if (v instanceof Set) return [...v];
      if (v instanceof Map) return Object.fromEntries(v);
      return v;
    },
    2,
  );
}
