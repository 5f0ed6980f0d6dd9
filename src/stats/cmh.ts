/**
 * The generalised Cochran–Mantel–Haenszel test of general association
 * (Landis, Heyman & Koch 1978): do rows and columns go together once a third
 * factor (the strata) is held fixed? One R × C table per stratum; within each
 * stratum the cell counts are conditioned on both margins (multivariate
 * hypergeometric), the deviations O − E are SUMMED over strata and the sum is
 * weighed by its exact conditional covariance:
 *
 *   Q = (Σₖ (O − E)ₖ)ᵀ (Σₖ Vₖ)⁻ (Σₖ (O − E)ₖ),  df = rank(Σₖ Vₖ) ≤ (R − 1)(C − 1).
 *
 * Summing before squaring is what makes it the test for an effect that is
 * the same in every stratum (a rig that favours a face whatever die it rolls).
 * Strata where a row or a column is empty simply contribute nothing; the
 * covariance is inverted by a sweep that drops redundant directions, so a row
 * or column seen in no informative stratum lowers df instead of failing.
 */
import { InputError } from '../core/errors.js';
import { chiSquareSf } from './special.js';

export interface CmhResult {
  readonly statistic: number;
  readonly df: number;
  readonly p: number;
  readonly logP: number;
  /** Σₖ Oₖ per cell (rows × columns), over the informative strata (N ≥ 2). */
  readonly observed: number[][];
  /** Σₖ Eₖ per cell, E = rowTotal · columnTotal / N in each stratum. */
  readonly expected: number[][];
  /** Σₖ Var(Oₖ) per cell: the diagonal of the summed covariance. */
  readonly variance: number[][];
  /** Strata that carried information (at least two rows and two columns with counts). */
  readonly strataUsed: number;
}

/** Generalised CMH general-association test over `strata` (each a rows × columns table of counts). */
export function generalizedCmh(strata: readonly (readonly (readonly number[])[])[]): CmhResult {
  const { rows, columns } = validateStrata(strata);
  const size = (rows - 1) * (columns - 1);
  const deviation = new Float64Array(size);
  const covariance = new Float64Array(size * size);
  const observed = grid(rows, columns);
  const expected = grid(rows, columns);
  const variance = grid(rows, columns);
  let strataUsed = 0;
  for (const table of strata) {
    const rowTotals = table.map((row) => row.reduce((a, b) => a + b, 0));
    const colTotals = new Array<number>(columns).fill(0);
    for (const row of table) row.forEach((x, j) => (colTotals[j]! += x));
    const n = rowTotals.reduce((a, b) => a + b, 0);
    if (n < 2 || rowTotals.filter((t) => t > 0).length < 2 || colTotals.filter((t) => t > 0).length < 2) continue;
    strataUsed++;
    const scale = 1 / (n * n * (n - 1));
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < columns; j++) {
        const o = (table[i] as readonly number[])[j] as number;
        const e = ((rowTotals[i] as number) * (colTotals[j] as number)) / n;
        observed[i]![j]! += o;
        expected[i]![j]! += e;
        variance[i]![j]! += (rowTotals[i] as number) * (n - (rowTotals[i] as number)) * (colTotals[j] as number) * (n - (colTotals[j] as number)) * scale;
        if (i < rows - 1 && j < columns - 1) deviation[i * (columns - 1) + j]! += o - e;
      }
    }
    // Cov(n_ij, n_i'j') = r_i (δ_ii' N − r_i') c_j (δ_jj' N − c_j') / (N² (N − 1)).
    for (let a = 0; a < size; a++) {
      const i = Math.floor(a / (columns - 1));
      const j = a % (columns - 1);
      for (let b = a; b < size; b++) {
        const i2 = Math.floor(b / (columns - 1));
        const j2 = b % (columns - 1);
        const rowPart = (rowTotals[i] as number) * ((i === i2 ? n : 0) - (rowTotals[i2] as number));
        const colPart = (colTotals[j] as number) * ((j === j2 ? n : 0) - (colTotals[j2] as number));
        const v = rowPart * colPart * scale;
        covariance[a * size + b]! += v;
        if (b !== a) covariance[b * size + a]! += v;
      }
    }
  }
  const { statistic, rank } = quadraticFormBySweep(deviation, covariance, size);
  if (rank === 0) return { statistic: 0, df: 0, p: 1, logP: 0, observed, expected, variance, strataUsed };
  const tail = chiSquareSf(statistic, rank);
  return { statistic, df: rank, p: tail.p, logP: tail.logP, observed, expected, variance, strataUsed };
}

/**
 * xᵀ A⁻ x for a symmetric non-negative definite A, by Gauss–Jordan sweeps on
 * the pivots that are not (numerically) zero; the swept count is the rank.
 */
function quadraticFormBySweep(x: Float64Array, matrix: Float64Array, size: number): { statistic: number; rank: number } {
  const m = Float64Array.from(matrix);
  const v = Float64Array.from(x);
  let maxDiagonal = 0;
  for (let k = 0; k < size; k++) maxDiagonal = Math.max(maxDiagonal, m[k * size + k] as number);
  const tolerance = maxDiagonal * 1e-10;
  let statistic = 0;
  let rank = 0;
  for (let k = 0; k < size; k++) {
    const pivot = m[k * size + k] as number;
    if (!(pivot > tolerance)) continue;
    rank++;
    const vk = v[k] as number;
    statistic += (vk * vk) / pivot;
    // Eliminate direction k from the remaining ones (Schur complement).
    for (let a = k + 1; a < size; a++) {
      const factor = (m[a * size + k] as number) / pivot;
      if (factor === 0) continue;
      v[a]! -= factor * vk;
      for (let b = k + 1; b < size; b++) m[a * size + b]! -= factor * (m[k * size + b] as number);
    }
  }
  return { statistic: Math.max(0, statistic), rank };
}

function grid(rows: number, columns: number): number[][] {
  return Array.from({ length: rows }, () => new Array<number>(columns).fill(0));
}

function validateStrata(strata: readonly (readonly (readonly number[])[])[]): { rows: number; columns: number } {
  const first = strata[0];
  if (first === undefined || first.length === 0 || (first[0] as readonly number[]).length === 0) {
    throw new InputError('A stratified test needs at least one stratum with one row and one column.');
  }
  const rows = first.length;
  const columns = (first[0] as readonly number[]).length;
  strata.forEach((table, k) => {
    if (table.length !== rows) throw new InputError(`Stratum ${k} has ${table.length} rows but stratum 0 has ${rows}; every stratum must have the same rows.`);
    table.forEach((row, i) => {
      if (row.length !== columns) throw new InputError(`Stratum ${k}, row ${i} has ${row.length} columns but ${columns} are expected.`);
      row.forEach((x, j) => {
        if (!Number.isInteger(x) || x < 0) throw new InputError(`Stratum ${k}, cell [${i}][${j}] is ${x}; counts must be non-negative integers.`);
      });
    });
  });
  return { rows, columns };
}
