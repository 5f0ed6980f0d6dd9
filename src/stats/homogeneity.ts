/**
 * r × k contingency tables: "do these dice share the same odds?" (one row per
 * die) and "does the next face depend on the previous one?" (a transition
 * table). Pearson's X² and the likelihood-ratio G against independence, with
 * Cramér's V and adjusted standardized residuals to say which cells drive it.
 * Matches scipy.stats.chi2_contingency(table, correction=False) on the table
 * left after all-zero rows and columns are dropped.
 */
import { InputError } from '../core/errors.js';
import { chiSquareSf } from './special.js';

export interface ContingencyStatistic {
  readonly statistic: number;
  readonly df: number;
  readonly p: number;
  readonly logP: number;
}

export interface ContingencyResult {
  /** Pearson's X² = Σ (O − E)² / E. */
  readonly pearson: ContingencyStatistic;
  /** Likelihood ratio G = 2 Σ O ln(O / E) (SciPy's lambda_="log-likelihood"). */
  readonly g: ContingencyStatistic;
  /** Cramér's V = sqrt(X² / (N · (min(r, c) − 1))), in [0, 1]; 0 when the reduced table has one row or column. */
  readonly cramersV: number;
  /**
   * Adjusted standardized residuals (O − E) / sqrt(E (1 − rowTotal/N)(1 − colTotal/N)),
   * approximately standard normal per cell under independence. Indexed like
   * the reduced table: residuals[i][j] is original row rowsUsed[i], column columnsUsed[j].
   */
  readonly residuals: number[][];
  /** Expected counts under independence, indexed like `residuals`. */
  readonly expected: number[][];
  /** Original indices of the rows kept (rows with a non-zero total). */
  readonly rowsUsed: number[];
  /** Original indices of the columns kept (columns with a non-zero total). */
  readonly columnsUsed: number[];
  /** Total count N. */
  readonly n: number;
}

/**
 * Tests independence of rows and columns in a table of counts. All-zero rows
 * and columns carry no information and would make expected counts zero, so
 * they are dropped and the degrees of freedom are (r' − 1)(c' − 1) of what is
 * left. With fewer than two rows or columns left there is nothing to test:
 * both statistics are 0 with df 0 and p = 1.
 * Throws `InputError` for a ragged or empty table or a count that is not a
 * non-negative integer.
 */
export function contingencyTest(table: readonly (readonly number[])[]): ContingencyResult {
  const columns = validateTable(table);
  const rowTotals = table.map((row) => row.reduce((a, b) => a + b, 0));
  const colTotals = new Array<number>(columns).fill(0);
  for (const row of table) row.forEach((x, j) => (colTotals[j]! += x));
  const rowsUsed = indicesWhere(rowTotals, (t) => t > 0);
  const columnsUsed = indicesWhere(colTotals, (t) => t > 0);
  const n = rowTotals.reduce((a, b) => a + b, 0);

  const expected: number[][] = [];
  const residuals: number[][] = [];
  let pearson = 0;
  let g = 0;
  for (const i of rowsUsed) {
    const rowTotal = rowTotals[i] as number;
    const eRow: number[] = [];
    const rRow: number[] = [];
    for (const j of columnsUsed) {
      const colTotal = colTotals[j] as number;
      const o = (table[i] as readonly number[])[j] as number;
      const e = (rowTotal * colTotal) / n;
      const d = o - e;
      pearson += (d * d) / e;
      if (o > 0) g += o * Math.log(o / e);
      eRow.push(e);
      const variance = e * (1 - rowTotal / n) * (1 - colTotal / n);
      rRow.push(variance > 0 ? d / Math.sqrt(variance) : 0);
    }
    expected.push(eRow);
    residuals.push(rRow);
  }
  g *= 2;

  const df = Math.max(0, rowsUsed.length - 1) * Math.max(0, columnsUsed.length - 1);
  const minSide = Math.min(rowsUsed.length, columnsUsed.length) - 1;
  return {
    pearson: statistic(pearson, df),
    g: statistic(Math.max(0, g), df),
    cramersV: df === 0 ? 0 : Math.min(1, Math.sqrt(pearson / (n * minSide))),
    residuals,
    expected,
    rowsUsed,
    columnsUsed,
    n,
  };
}

function statistic(x: number, df: number): ContingencyStatistic {
  if (df === 0) return { statistic: 0, df: 0, p: 1, logP: 0 };
  const tail = chiSquareSf(x, df);
  return { statistic: x, df, p: tail.p, logP: tail.logP };
}

function validateTable(table: readonly (readonly number[])[]): number {
  const first = table[0];
  if (first === undefined || first.length === 0) throw new InputError('A contingency table needs at least one row and one column.');
  const columns = first.length;
  table.forEach((row, i) => {
    if (row.length !== columns) {
      throw new InputError(`Row ${i} of the contingency table has ${row.length} columns but row 0 has ${columns}; the table must be rectangular.`);
    }
    row.forEach((x, j) => {
      if (!Number.isInteger(x) || x < 0) {
        throw new InputError(`Cell [${i}][${j}] of the contingency table is ${x}; counts must be non-negative integers.`);
      }
    });
  });
  return columns;
}

function indicesWhere(values: readonly number[], keep: (x: number) => boolean): number[] {
  const out: number[] = [];
  values.forEach((x, i) => {
    if (keep(x)) out.push(i);
  });
  return out;
}
