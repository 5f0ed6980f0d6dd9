/**
 * A chart's numbers as text, for a reader who cannot see the chart (a screen reader, a text browser, a copy into a
 * spreadsheet): where a table of the section already holds them, a pointer to it; else a table of their own, folded
 * under the chart.
 */
import { formatCount, formatLogScientific } from '../core/format.js';
import { escapeHtml } from './escape.js';
import { htmlTable } from './htmlTable.js';
import type { ReportChart } from './reportCharts.js';
import type { DieReport } from './sessionReport.js';

/** Evidence points given as rows: enough to follow the curve, few enough to read. */
const EVIDENCE_ROWS = 12;

/** The numbers behind `kind`'s chart of die `d`, as HTML to place under it. */
export function chartData(kind: ReportChart['kind'], d: DieReport): string {
  switch (kind) {
    case 'symbols':
      return pointer('The numbers: the table of rolls by symbol below.');
    case 'faces':
      return pointer('The numbers: the table of rolls by face below.');
    case 'game':
      return pointer('The numbers: the table of game figures below.');
    case 'evidence':
      return folded(evidenceTable(d));
    case 'transitions':
      return folded(transitionsTable(d));
  }
}

function pointer(text: string): string {
  return `<p class="chart-data note">${text}</p>`;
}

function folded(table: string): string {
  return `<details class="chart-data"><summary>The chart’s numbers</summary>\n${table}\n</details>`;
}

function evidenceTable(d: DieReport): string {
  const e = d.evidence;
  if (e.rolls.length === 0) return `<p class="note">${escapeHtml(e.unavailable ?? 'No rolls yet.')}</p>`;
  const last = e.rolls.length - 1;
  const step = Math.max(1, Math.ceil(last / (EVIDENCE_ROWS - 1)));
  const picked = new Set<number>();
  for (let i = 0; i <= last; i += step) picked.add(i);
  picked.add(last);
  if (e.decidedAt !== null) {
    const at = e.rolls.indexOf(e.decidedAt);
    if (at >= 0) picked.add(at);
  }
  const rows = [...picked]
    .sort((a, b) => a - b)
    .map((i) => ({
      cells: [
        { text: formatCount(e.rolls[i] as number), num: true },
        { text: formatLogScientific(e.logE[i] as number), num: true },
        (e.logE[i] as number) >= e.thresholdLogE ? 'past the UNFAIR line' : 'below it',
      ],
    }));
  return htmlTable(['after rolls', { text: 'e-value', num: true }, 'against the UNFAIR line'], rows, 'evidence-data', `${d.analysis.label}: e-value as the rolls came in (UNFAIR at ${formatLogScientific(e.thresholdLogE)})`);
}

function transitionsTable(d: DieReport): string {
  const t = d.transitions;
  const rows = t.labels.map((from, i) => ({
    cells: [`after ${from}`, ...t.labels.map((_, j) => ({ text: formatCount(t.counts[i]?.[j] ?? 0), num: true }))],
  }));
  return htmlTable(['previous roll', ...t.labels.map((l) => ({ text: `then ${l}`, num: true }))], rows, 'transition-data', `${d.analysis.label}: how often each ${t.level} followed each ${t.level}`);
}
