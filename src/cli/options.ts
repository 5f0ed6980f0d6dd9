import { InvalidArgumentError } from 'commander';
import { probabilityFromLog } from '../core/format.js';

/** Commander argument parsers that reject bad numbers with a message naming the expected form. */
export function probabilityArg(value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x <= 0 || x >= 1) throw new InvalidArgumentError(`expected a number between 0 and 1 (exclusive), got "${value}".`);
  return x;
}

export function positiveIntArg(value: string): number {
  const x = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(x) || x < 1) throw new InvalidArgumentError(`expected a whole number of at least 1, got "${value}".`);
  return x;
}

export function nonNegativeIntArg(value: string): number {
  const x = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(x)) throw new InvalidArgumentError(`expected a whole number of at least 0, got "${value}".`);
  return x;
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
