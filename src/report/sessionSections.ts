import { confidenceLabel, fixed, formatCount, formatLogScientific, formatProbability, percent } from '../core/format.js';
import { homogeneityReading } from '../analysis/homogeneityUnresolved.js';
import { escapeHtml } from './escape.js';
import { htmlTable } from './htmlTable.js';
import type { SessionReport } from './sessionReport.js';


/** Rig health: throughput, void/reroll/cocked rates, logged events, and every die's rig checks side by side. */
export function rigHealthSection(report: SessionReport): string {
  const h = report.rigHealth;
  const c = h.counts;
  const figures: [string, string, string][] = [
    ['throws', formatCount(c.throws), `${formatCount(c.ok)} ok, ${formatCount(c.void)} void, ${formatCount(c.rerolled)} rerolled`],
    ['throws per hour', h.throwsPerHour === null ? '—' : formatCount(h.throwsPerHour), h.spanNote],
    ['counted rolls per hour', h.countedRollsPerHour === null ? '—' : formatCount(h.countedRollsPerHour), `${formatCount(c.countedRolls)} counted rolls of ${formatCount(c.rolls)} read`],
    ['void rate', percent(h.voidRate, 1, '—'), 'throws a fault interrupted (never counted)'],
    ['reroll rate', percent(h.rerollRate, 1, '—'), 'throws re-tumbled because a die was cocked, unreadable or missing'],
    ['cocked rate', percent(h.cockedRate, 1, '—'), `${formatCount(c.cocked)} cocked dice of ${formatCount(c.rolls)} read`],
  ];
  const table = htmlTable(
    ['figure', { text: 'value', num: true }, 'how it is measured'],
    figures.map(([name, value, how]) => ({ attrs: { 'data-figure': name }, cells: [name, { text: value, num: true, attrs: { 'data-col': 'value' } }, how] })),
    'rig-figures',
    'Rig health figures',
  );
  const events =
    h.events.length === 0
      ? '<p class="note">No events were logged.</p>'
      : htmlTable(['event', { text: 'times', num: true }], h.events.map((e) => ({ attrs: { 'data-event': e.kind }, cells: [e.kind, { text: formatCount(e.count), num: true }] })), 'events', 'Events logged during the session');
  const names = [...new Set(report.dice.flatMap((d) => d.analysis.serial.checks.map((x) => x.name)))];
  const serialRows = report.dice.map((d) => {
    const s = d.analysis.serial;
    return {
      attrs: { 'data-die': d.analysis.label },
      cells: [
        d.analysis.label,
        ...names.map((name) => {
          const check = s.checks.find((x) => x.name === name);
          if (check === undefined) return { text: 'n/a', num: true };
          if (check.skipped) return { text: 'skipped', num: true };
          const failed = check.adjustedP <= s.alpha;
          return { text: `${formatLogScientific(Math.log(check.adjustedP))}${failed ? ' ✗' : ''}`, num: true, className: failed ? 'failed' : '' };
        }),
        { text: s.suspect ? 'SUSPECT' : 'passed', className: s.suspect ? 'failed' : '' },
      ],
    };
  });
  const alpha = report.analysis.serialAlpha;
  return `<section id="rig-health">
<h2>Rig health</h2>
${table}
<h3>Logged events</h3>
${events}
<h3>Rig checks per die</h3>
<p class="note">Holm-adjusted p of each check on the die’s rolls in throw order; a check fails at p ≤ ${alpha}. A failed check means the rolls depend on each other, so that die’s verdict is withheld (RIG_SUSPECT).</p>
${htmlTable(['die', ...names.map((n) => ({ text: n, num: true })), 'result'], serialRows, 'checks serial-summary', 'Serial checks of every die')}
</section>`;
}

/** Homogeneity: do the dice of one type share the same odds? */
export function homogeneitySection(report: SessionReport): string {
  const groups = report.analysis.homogeneity;
  const alpha = report.analysis.alpha;
  if (groups.length === 0) {
    return `<section id="homogeneity"><h2>Are the dice alike?</h2><p>Only one die of each type was rolled, so there is nothing to compare.</p></section>`;
  }
  const rows = groups.map((g) => {
    const t = g.test;
    return {
      attrs: { 'data-type': g.dieType, 'data-level': g.level },
      cells: [
        g.dieType,
        g.level,
        g.dice.join(', '),
        { text: `${fixed(t.pearson.statistic, 2)} (${t.pearson.df})`, num: true },
        { text: formatLogScientific(t.pearson.logP), num: true, attrs: { 'data-col': 'p' } },
        { text: fixed(t.cramersV, 3), num: true },
        homogeneityReading(g, alpha),
      ],
    };
  });
  return `<section id="homogeneity">
<h2>Are the dice alike?</h2>
<p class="note">Pearson test of homogeneity across the dice of each type (one row of counts per die): a small p says the dice do not share the same odds, even when each is within its margin. Dice that differ at p &lt; ${formatProbability(alpha)} should not be mixed in one pool without checking the pool’s balance.</p>
${htmlTable(['type', 'by', 'dice', { text: 'X² (df)', num: true }, { text: 'p', num: true }, { text: "Cramér's V", num: true }, 'reading'], rows, 'homogeneity', 'Whether dice of one type roll alike')}
</section>`;
}

/** How the verdicts were reached, in a few lines: the session's own rule when it made them, else the fixed-size analysis. */
export function methodSection(report: SessionReport): string {
  const a = report.analysis;
  const made = report.verdicts;
  if (made !== null && made.dice.length > 0) {
    const c = made.errorControl;
    const items = [
      made.importedFrom !== undefined
        ? `The verdicts are those the session made while rolling, kept by this import of its export ${made.importedFrom.file} (its session ${made.importedFrom.session}); this report does not recompute them. ${c.statement}`
        : `The verdicts are the session’s own, as it made them while rolling; this report does not recompute them. ${c.statement}`,
      `UNFAIR: the die’s anytime-valid e-value against its published odds (Dirichlet-mixture Bayes factor, Lindon & Malek 2022), taken at its least favourable over every face its unresolved rolls could have been, reached ${formatCount(c.threshold)}; it stays valid however and whenever the rolling was stopped.`,
      `FAIR_WITHIN(${a.delta}): every face’s anytime-valid ${confidenceLabel(c.alphaPerDie)} interval, widened over every face its unresolved rolls could have been and over the reader’s measured misread bounds, lies inside its published probability ± ${a.delta}. "Not rejected" alone is never reported as fair.`,
      `Rig checks (repeats, same-or-opposite, transitions, runs) run on each die’s rolls in throw order at family-wise ${a.serialAlpha}; a failure withholds the verdicts (RIG_SUSPECT).`,
      `The frequency and in-play charts, the p-values and the table of how alike the dice are treat the rolls as a sample of fixed size (${confidenceLabel(a.certifyAlpha)} simultaneous intervals of the faces, ${confidenceLabel(a.alpha)} in play): they are there to look at, decide nothing, and are not valid tests at a count the stopping rule chose.`,
      'Only rolls of ok throws enter the statistics: those read count as their faces, the unresolved ones as said above. Void and re-tumbled throws appear only in the rig-health figures.',
    ];
    return `<section id="method"><h2>How to read this report</h2><ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul></section>`;
  }
  const control = a.multiplicity === 'holm' ? 'Holm (family-wise)' : 'Benjamini–Hochberg (false discovery rate)';
  const items = [
    `Error rate α = ${a.alpha} per verdict, controlled across all ${a.family} tests of this report (${a.dice.length} dice, by symbol and by face) with ${control}.`,
    `FAIR_WITHIN(${a.delta}) means every face’s simultaneous ${confidenceLabel(a.certifyAlpha)} interval (Goodman: Wilson score with Bonferroni over the faces, at α over the ${a.dice.length} ${a.dice.length === 1 ? 'die' : 'dice'}) lies inside its expected probability ± ${a.delta}, so a wrong FAIR_WITHIN among them has a chance of at most α. "Not rejected" alone is never reported as fair.`,
    `Rig checks (repeats, same-or-opposite, transitions, runs) run on each die’s rolls in throw order at family-wise ${a.serialAlpha}; a failure withholds that die’s verdict (RIG_SUSPECT).`,
    'Verdicts treat each die’s rolls as a sample of fixed size. A run that stopped when a die had a verdict is judged fairly by the anytime-valid e-value (Dirichlet-mixture Bayes factor, Lindon & Malek 2022), which stays valid however the rolling was stopped.',
    'Only counted rolls enter the statistics: rolls of ok throws, read and not cocked. Void and rerolled throws appear only in the rig-health figures.',
  ];
  return `<section id="method"><h2>How to read this report</h2><ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul></section>`;
}
