import { fixed, formatCount, formatLogScientific, formatProbability } from '../core/format.js';
import { type Verdict } from '../stats/verdict.js';
import { escapeHtml } from './escape.js';
import { inPlayFigure } from './unresolvedRange.js';
import { htmlTable, type Row } from './htmlTable.js';
import type { SessionReport } from './sessionReport.js';
import { verdictBadge } from './verdictBadge.js';

/** The verdict as the vocabulary writes it: `FAIR_WITHIN(0.03)`, else the kind. */
export function verdictLabel(v: Verdict): string {
  return v.kind === 'FAIR_WITHIN' ? `FAIR_WITHIN(${formatProbability(v.delta)})` : v.kind;
}

/**
 * A die's rolls as the run counted them: read and unresolved, the unresolved said ("1,500 (1 unresolved)"), so the
 * report's count is the run's and the verdict's.
 */
export function rollsText(read: number, unresolved: number): string {
  return unresolved > 0 ? `${formatCount(read + unresolved)} (${formatCount(unresolved)} unresolved)` : formatCount(read);
}

/** The same count in a sentence, as a die's heading says it: "300 rolls (50 unresolved)", or "1,500 counted rolls". */
export function rollsPhrase(read: number, unresolved: number): string {
  return unresolved > 0 ? `${formatCount(read + unresolved)} rolls (${formatCount(unresolved)} unresolved)` : `${formatCount(read)} counted rolls`;
}

/** A verdict that is a campaign's RIG_SUSPECT: the session's rig was found biased, so nothing of the die is certified from it. */
export function campaignSetAside(v: Verdict): boolean {
  return v.kind === 'RIG_SUSPECT' && v.campaign !== undefined;
}

/**
 * The table a tournament organiser prints: one row per die with its rolls,
 * verdict, the deviation it is certified within, and what it does in play.
 */
export function organiserTable(report: SessionReport): string {
  const rows = report.dice.map((d): Row => {
    const a = d.analysis;
    const unresolved = d.resolution?.unresolved ?? 0;
    const game = a.game
      .map((g) => {
        const f = inPlayFigure(g, report.analysis.alpha, (x) => fixed(x));
        return (
          `<div data-figure="${escapeHtml(g.figure.name)}">${escapeHtml(g.figure.description)}: <strong>${escapeHtml(f.value)}</strong> ` +
          `<span class="note">(${fixed(g.result.expected)} expected, ${escapeHtml(f.note)})</span></div>`
        );
      })
      .join('');
    return {
      attrs: { 'data-die': a.label },
      cells: [
        { html: `<a href="#die-${d.key}">${escapeHtml(a.label)}</a>`, attrs: { 'data-col': 'die' } },
        { text: a.die.id, attrs: { 'data-col': 'type' } },
        { text: rollsText(a.n, unresolved), num: true, attrs: { 'data-col': 'rolls' } },
        { html: verdictBadge(a.verdict.kind, verdictLabel(a.verdict)), attrs: { 'data-col': 'verdict' } },
        // A campaign that set the session's rig aside certifies nothing of its dice from it.
        campaignSetAside(a.verdict)
          ? { text: '-', num: true, attrs: { 'data-col': 'certified' } }
          : { text: `±${fixed(d.certifiedBound)}`, num: true, attrs: { 'data-col': 'certified', 'data-value': d.certifiedBound } },
        { html: game || '<span class="note">none for this die type</span>', className: 'game', attrs: { 'data-col': 'game' } },
        { text: formatLogScientific(a.anytime.logE), num: true, attrs: { 'data-col': 'e-value' } },
      ],
    };
  });
  return htmlTable(
    ['die', 'type', { text: 'rolls', num: true }, 'verdict', { text: 'certified within', num: true }, 'in play, per die', { text: 'e-value', num: true }],
    rows,
    'organiser-table',
    'Every die of the session: its verdict, rolls and game figures',
  );
}
