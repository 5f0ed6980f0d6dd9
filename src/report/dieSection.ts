import type { Analysis, DieAnalysis } from '../analysis/analyze.js';
import { namesOf, type LevelAnalysis } from '../analysis/levelAnalysis.js';
import { decidedOnWords } from '../analysis/sessionVerdict.js';
import { confidenceLabel, fixed, formatCount, formatCountOf, formatLogScientific, formatProbability, signedPercent } from '../core/format.js';
import type { DieVerdict } from '../stats/dieVerdict.js';
import { certifiableMarginLimit } from '../stats/misreadReach.js';
import { narrowingCommand } from '../vision/calibration/checkedDice.js';
import { sceneToSvg } from './chart/svg.js';
import { chartData } from './chartData.js';
import { escapeHtml } from './escape.js';
import { htmlTable } from './htmlTable.js';
import { faceResolutionTable } from './resolutionTables.js';
import { rollsPhrase, verdictLabel } from './organiserTable.js';
import type { ReportChart } from './reportCharts.js';
import type { DieReport } from './sessionReport.js';
import { verdictBadge, verdictClass } from './verdictBadge.js';

const CAPTIONS: Record<ReportChart['kind'], string> = {
  symbols: 'Bars: share of rolls per symbol; orange line: the published odds; whiskers: intervals that hold for all symbols at once.',
  faces: 'The same per physical face: a single heavy face shows here long before it shows by symbol.',
  evidence: 'Anytime-valid e-value against the published symbol odds: valid however early the rolling stopped. Crossing the dashed line is an UNFAIR verdict. A bias between faces of one symbol shows in the face test, not here.',
  transitions: 'Counts of each roll after each roll; colour: how far a cell is from what independent tumbles give. A rig that does not tumble lights up the diagonal.',
  game: 'What the die does in play: each figure’s difference from its expected rate, with its interval.',
};

const SESSION_EVIDENCE_CAPTION =
  'The e-value the session’s verdict rests on: the least favourable one over every face its unresolved rolls could have (and every misread within the calibration’s bounds), replayed from the stored rolls and reviews. Crossing the dashed line, the session’s threshold K/α, is an UNFAIR verdict.';

/** Said before fixed-n p-values of a session that stopped each die when its monitor decided. */
export const DESCRIPTIVE_NOTE = 'Descriptive only: a fixed-n p-value at a sample size the stopping rule chose is not a valid test; the verdict rests on the anytime-valid e-value.';

/** One die's section: verdict and what it means, its charts, and the numbers behind them. */
export function dieSection(d: DieReport, charts: readonly ReportChart[], a: Analysis): string {
  const die = d.analysis;
  const v = die.verdict;
  const channels = d.channels.length > 0 ? ` · channel${d.channels.length === 1 ? '' : 's'} ${d.channels.join(', ')}` : '';
  const figures = charts
    .map(
      (c) =>
        `<figure data-chart="${c.kind}">${sceneToSvg(c.scene, c.id)}` +
        `<figcaption><span>${escapeHtml(c.kind === 'evidence' && d.evidence.source === 'session' ? SESSION_EVIDENCE_CAPTION : CAPTIONS[c.kind])}</span><a class="png-link" href="${escapeHtml(c.fileName)}">PNG</a></figcaption>${chartData(c.kind, d)}</figure>`,
    )
    .join('\n');
  return `<section class="die" id="die-${d.key}" data-die="${escapeHtml(die.label)}" data-verdict="${v.kind}">
<h2>${escapeHtml(die.label)} ${verdictBadge(v.kind, verdictLabel(v))}</h2>
<p class="die-meta">${escapeHtml(die.die.name)} · ${rollsPhrase(die.n, d.resolution?.unresolved ?? 0)}${channels}</p>
<div class="meaning ${verdictClass(v.kind)}">${d.meaning.map((m) => `<p>${escapeHtml(m)}</p>`).join('')}</div>
<p class="sentence">${escapeHtml(die.sentence)}</p>
${correctedNote(d)}${alsoRolled(d)}
<div class="charts">
${figures}
</div>
<h3>The numbers</h3>
${levelTable(die, die.symbol, a, d.stored !== null)}
${die.face ? levelTable(die, die.face, a, d.stored !== null) : ''}
${gameTable(die, a)}
${evidenceLine(d)}
${faceResolutionTable(d.resolution)}
<h3>Rig checks on this die’s rolls</h3>
${serialTable(die)}
</section>`;
}

function levelTable(d: DieAnalysis, l: LevelAnalysis, a: Analysis, descriptive: boolean): string {
  const adjusted = d.adjusted.find((x) => x.analysis === l);
  const names = namesOf(l);
  const rows = l.labels.map((label, i) => {
    const iv = l.intervals[i] as { lower: number; upper: number };
    const observed = l.n > 0 ? (l.counts[i] as number) / l.n : Number.NaN;
    return {
      attrs: { 'data-level': l.level, 'data-label': label },
      cells: [
        names[i] as string,
        { text: formatCount(l.counts[i] as number), num: true, attrs: { 'data-col': 'count' } },
        { text: fixed(observed), num: true, attrs: { 'data-col': 'observed' } },
        { text: fixed(l.expected[i] as number), num: true, attrs: { 'data-col': 'expected' } },
        { text: `${fixed(iv.lower)}–${fixed(iv.upper)}`, num: true, attrs: { 'data-col': 'interval' } },
        { text: signedPercent(l.relativeDeviations[i] as number), num: true, attrs: { 'data-col': 'deviation' } },
      ],
    };
  });
  const exact = l.exact ? `; exact multinomial p = ${formatLogScientific(l.exact.logP)}` : '';
  const test =
    `By ${l.level}: Pearson X² = ${fixed(l.pearson.statistic, 2)} (${l.pearson.df} df), p = ${formatLogScientific(l.pearson.logP)}; ` +
    `G-test p = ${formatLogScientific(l.g.logP)}${exact}; adjusted p (${a.multiplicity === 'holm' ? 'Holm' : 'Benjamini–Hochberg'} over ${a.family} tests) = ` +
    `${adjusted ? formatLogScientific(adjusted.adjustedLogP) : '?'}; Cohen's w = ${fixed(l.cohensW)}.`;
  const widened =
    l.widenedOver !== undefined
      ? `<p class="note" data-widened-over="${l.widenedOver}">${escapeHtml(`Intervals widened over every ${l.level} the ${formatCountOf(l.widenedOver, 'unresolved roll')} could have been; observed: of the read rolls.`)}</p>\n`
      : '';
  return (
    htmlTable(
      [l.level, { text: 'count', num: true }, { text: 'observed', num: true }, { text: 'expected', num: true }, { text: `${confidenceLabel(a.certifyAlpha)} simultaneous`, num: true }, { text: 'deviation', num: true }],
      rows,
      `level-table level-${l.level}`,
      `${d.label}: rolls by ${l.level}, observed against expected`,
    ) + `\n${widened}<p class="note" data-test="${l.level}"${descriptive ? ' data-descriptive="true"' : ''}>${descriptive ? `<strong>${escapeHtml(DESCRIPTIVE_NOTE)}</strong> ` : ''}${escapeHtml(test)}</p>`
  );
}

function gameTable(d: DieAnalysis, a: Analysis): string {
  if (d.game.length === 0) return '';
  const rows = d.game.map((g) => ({
    attrs: { 'data-figure': g.figure.name },
    cells: [
      g.figure.description,
      { text: fixed(g.result.rate), num: true, attrs: { 'data-col': 'rate' } },
      { text: fixed(g.result.expected), num: true, attrs: { 'data-col': 'expected' } },
      { text: `${g.result.delta >= 0 ? '+' : ''}${fixed(g.result.delta)} (${signedPercent(g.result.relative)})`, num: true, attrs: { 'data-col': 'delta' } },
      { text: `${fixed(g.result.interval.lower)}–${fixed(g.result.interval.upper)}`, num: true, attrs: { 'data-col': 'interval' } },
    ],
  }));
  return htmlTable(
    ['in play', { text: 'rate', num: true }, { text: 'expected', num: true }, { text: 'difference', num: true }, { text: `${confidenceLabel(a.alpha)} interval`, num: true }],
    rows,
    'game-table',
    `${d.label}: game figures against their expected rates`,
  ) + widenedGameNote(d);
}

/** Said under the game table when its intervals hold whatever the die's unresolved rolls were (rates: of the read rolls). */
function widenedGameNote(d: DieAnalysis): string {
  const u = d.game.find((g) => g.widenedOver !== undefined)?.widenedOver;
  if (u === undefined) return '';
  return `\n<p class="note" data-widened-over="${u}">${escapeHtml(`Intervals whatever the ${formatCountOf(u, 'unresolved roll')} ${u === 1 ? 'was' : 'were'}; rates: of the read rolls.`)}</p>`;
}

function evidenceLine(d: DieReport): string {
  const e = d.evidence;
  const s = d.stored;
  // A stored verdict is stated with the session's own figures, whatever the chart could replay: one verdict, never "no decision yet" beside it.
  if (s !== null) return storedEvidenceLine(s, e.source === 'session' ? 'session' : 'read-rolls');
  if (e.unavailable !== undefined) return `<p class="note">Anytime-valid test: not available (${escapeHtml(e.unavailable)}).</p>`;
  const decided = e.decidedAt !== null ? `${e.decision} at roll ${formatCount(e.decidedAt)}` : 'no decision yet';
  return (
    `<p class="note" data-test="anytime">Anytime-valid e-value against the published odds of its symbols${e.unresolved !== undefined ? `, least favourable over its ${formatCountOf(e.unresolved, 'unresolved roll')}` : ''}: <strong>${formatLogScientific(e.finalLogE)}</strong> ` +
    `(UNFAIR once it reaches ${formatLogScientific(e.thresholdLogE)} = 1/α′, α′ = α / tests); ${escapeHtml(decided)}.</p>`
  );
}

/** The session's verdict of a die in words: its e-value, threshold K/α, anytime-valid p and when it decided; `chart` says what the evidence chart replays. */
function storedEvidenceLine(s: DieVerdict, chart: 'session' | 'read-rolls'): string {
  const c = s.errorControl;
  const family = c.dice === 1 ? 'its one die' : `${c.dice} dice, Bonferroni`;
  // Labels given after an UNFAIR decision move this e-value, not the one the verdict's sentence gives: say so.
  const decidedOn = decidedOnWords(s.verdict, s.logE);
  const decided = s.decidedAt !== null ? `${s.kind} at roll ${formatCount(s.decidedAt)}${decidedOn !== null ? ` (${decidedOn})` : ''}` : 'no decision yet';
  return (
    `<p class="note" data-test="anytime" data-source="${chart}" data-log-e="${s.logE}" data-log-threshold="${s.logThreshold}" data-decision="${s.kind}">` +
    `The session’s e-value (least favourable over its unresolved rolls${s.misreadRates !== null ? ' and the calibration’s misread bounds' : ''}): <strong>${formatLogScientific(s.logE)}</strong> ` +
    `(UNFAIR once it reaches ${formatLogScientific(s.logThreshold)} = K/α, α = ${c.alpha} over ${escapeHtml(family)}); anytime-valid p ${formatLogScientific(s.logAnytimeP)}; ${escapeHtml(decided)}.` +
    (chart === 'read-rolls' ? ' The chart replays the read rolls only: the session’s stored roll events did not fit its verdict’s faces.' : '') +
    '</p>' +
    (s.misreads !== undefined ? `\n<p class="note" data-misreads="${s.misreads.kind}">${escapeHtml(`Misreads: ${s.misreads.statement.replace(/^misreads /, '')}.`)}</p>` : '') +
    misreadReachLine(s)
  );
}

/** When the misread bounds alone keep an undecided die from FAIR_WITHIN(delta), however long it rolls: said beside them (`stats/misreadReach.ts`). */
function misreadReachLine(s: DieVerdict): string {
  if (s.misreadRates === null || s.kind !== 'INCONCLUSIVE') return '';
  const limit = certifiableMarginLimit(s.faces.map((f) => f.expected), s.misreadRates);
  if (limit < s.delta) return '';
  return (
    `\n<p class="note" data-misread-reach="${limit}">These misread bounds let no die be certified within ±${formatProbability(s.delta)}, however long it rolls: ` +
    `even a fair die read without a misread gets no closer than ±${formatProbability(limit)}. More reads of every face narrow them (a profile: ${escapeHtml(narrowingCommand())}).</p>`
  );
}

function serialTable(d: DieAnalysis): string {
  const rows = d.serial.checks.map((c) => {
    const failed = !c.skipped && c.adjustedP <= d.serial.alpha;
    return {
      attrs: { 'data-check': c.name },
      cells: [
        c.name,
        { text: c.skipped ? '—' : formatLogScientific(c.logP), num: true },
        { text: c.skipped ? '—' : formatLogScientific(Math.log(c.adjustedP)), num: true },
        { text: c.skipped ? 'skipped' : failed ? 'FAILED' : 'passed', className: failed ? 'failed' : '' },
        c.detail,
      ],
    };
  });
  return htmlTable(['check', { text: 'p', num: true }, { text: 'Holm p', num: true }, 'result', 'detail'], rows, 'checks', `${d.label}: serial checks (independence of successive rolls)`);
}

/**
 * Where else the die was rolled: this verdict is this session's alone, and `analyze` judges the die on all its
 * sessions' evidence together (the product of their e-values; src/analysis/acrossSessions.ts).
 */
function alsoRolled(d: DieReport): string {
  const also = d.alsoRolledIn;
  if (also === undefined || also.others.length === 0) return '';
  const named = also.others.map((s) => `session ${s.id}${s.name !== null ? ` (${s.name})` : ''}`).join(', ');
  const ids = also.others.map((s) => String(s.id)).join(' ');
  return (
    `<p class="also-rolled" data-sessions="${escapeHtml(ids)}">Also rolled in ${escapeHtml(named)}. This verdict is this session's alone; ` +
    `<code>dicerig analyze ${also.session} ${escapeHtml(ids)}</code> (with this report's <code>--db</code>) judges the die on all of them together.</p>`
  );
}

/** A verdict made before labels it counted were corrected: it stands as the session made it, and the report says so. */
function correctedNote(d: DieReport): string {
  const c = d.correctedSince;
  if (c === undefined) return '';
  return `<p class="note corrected-since">${escapeHtml(`This verdict was made before labels it counted were corrected (it counted ${c.then}; now ${c.now}): it is shown as the session made it, on the labels of its time.`)}</p>\n`;
}
