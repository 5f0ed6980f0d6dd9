import type { Scene } from './chart/scene.js';
import { evidenceChart } from './charts/evidenceChart.js';
import { frequencyChart } from './charts/frequencyChart.js';
import { gameChart } from './charts/gameChart.js';
import { transitionHeatmap } from './charts/transitionHeatmap.js';
import type { SessionReport } from './sessionReport.js';

export type ChartKind = 'symbols' | 'faces' | 'evidence' | 'transitions' | 'game';

/** One chart of the report: drawn inline in the HTML and written as `fileName` beside it. */
export interface ReportChart {
  /** HTML id of the inline SVG. */
  readonly id: string;
  /** The PNG's file name (no folder). */
  readonly fileName: string;
  readonly dieKey: string;
  readonly kind: ChartKind;
  readonly scene: Scene;
}

/** Every chart of a report, die by die, in the order the page shows them. */
export function reportCharts(report: SessionReport): ReportChart[] {
  const alpha = report.analysis.alpha;
  const charts: ReportChart[] = [];
  for (const d of report.dice) {
    const a = d.analysis;
    const add = (kind: ChartKind, scene: Scene): void => void charts.push({ id: `chart-${d.key}-${kind}`, fileName: `${d.key}-${kind}.png`, dieKey: d.key, kind, scene });
    add('symbols', frequencyChart(a.symbol, `${a.label}: symbols, observed vs expected`, report.analysis.certifyAlpha));
    if (a.face) add('faces', frequencyChart(a.face, `${a.label}: faces, observed vs expected`, report.analysis.certifyAlpha));
    add('evidence', evidenceChart(d.evidence, `${a.label}: evidence against fairness as rolls accumulated (by symbol)`));
    add('transitions', transitionHeatmap(d.transitions, `${a.label}: what came up after what (${d.transitions.level}s)`));
    if (a.game.length > 0) add('game', gameChart(a.game, `${a.label}: in play, per die`, alpha));
  }
  return charts;
}
