import type { Analysis, AnalysisHead, DieAnalysis } from '../../analysis/analyze.js';
import { inPlayFigure } from '../../report/unresolvedRange.js';
import { homogeneityReading } from '../../analysis/homogeneityUnresolved.js';
import { namesOf, type LevelAnalysis } from '../../analysis/levelAnalysis.js';
import { decidedOnWords } from '../../analysis/sessionVerdict.js';
import { confidenceLabel, fixed, formatCount, formatCountOf, formatLogScientific, signedPercent } from '../../core/format.js';
import { renderTable } from '../../core/textTable.js';
import { simulatedLine } from '../simulatedSources.js';

/** The human-readable report of `dicerig analyze`. */
export function formatAnalysisText(a: Analysis): string {
  const { dice, ...head } = a;
  return [...analysisTextParts({ ...head, count: dice.length, totalRolls: dice.reduce((s, d) => s + d.n, 0) }, dice)].join('\n');
}

/**
 * The same report in parts (joined by newlines), one die at a time, so
 * `analyze` can write a file of 200,000 dice without building it whole.
 */
export function* analysisTextParts(a: AnalysisHead, dice: Iterable<DieAnalysis>): Generator<string> {
  const control = a.multiplicity === 'holm' ? 'Holm' : 'Benjamini–Hochberg';
  const own = a.settingsFromSessions ?? [];
  const theirs = (key: 'alpha' | 'delta' | 'serialAlpha') => (own.includes(key) ? " (the sessions' own)" : '');
  yield `${formatCountOf(a.count, 'die', 'dice')}, ${formatCountOf(a.totalRolls, 'roll')}${a.unresolvedRolls !== undefined && a.unresolvedRolls > 0 ? ` read, ${formatCount(a.unresolvedRolls)} unresolved` : ''}. alpha ${a.alpha}${theirs('alpha')}, ${control} over ${a.family} test${a.family === 1 ? '' : 's'}, ` +
    `FAIR_WITHIN margin ±${a.delta}${theirs('delta')}, rig checks at ${a.serialAlpha}${theirs('serialAlpha')}.`;
  if (a.simulated !== undefined) yield simulatedLine(a.simulated);
  const fromSessions = a.sessionVerdicts ?? 0;
  const across = a.acrossSessions ?? 0;
  if (fromSessions + across + (a.campaignSetAside ?? 0) < a.count) yield "Verdicts assume the number of rolls was fixed in advance; the anytime e-value of a die's symbols stays valid however the rolling was stopped.";
  if (across > 0) {
    yield (
      `${across === a.count ? 'Every die was' : `${across} of the dice ${across === 1 ? 'was' : 'were'}`} rolled in several stored sessions: judged on the product of those sessions' e-values ` +
      `(valid however the die came to be rolled again), UNFAIR at alpha over the tests, and FAIR_WITHIN only where the sessions' own intervals together certify it; ` +
      `the fixed-n figures beside ${across === 1 ? 'it' : 'them'} are descriptive only.`
    );
  }
  const setAside = a.campaignSetAside ?? 0;
  if (setAside > 0) {
    yield (
      `${setAside === a.count ? 'Every die was' : `${setAside} of the dice ${setAside === 1 ? 'was' : 'were'}`} rolled only in sessions on a rig their campaign found biased: ` +
      `RIG_SUSPECT by the campaign's finding, as dicerig campaign report shows it (the sessions' own verdicts are set aside; the figures beside them are for diagnosis only).`
    );
  }
  if (fromSessions > 0) {
    const one = fromSessions === 1 || fromSessions === a.count;
    const who = fromSessions === a.count ? 'Every die was' : `${fromSessions} of the dice ${fromSessions === 1 ? 'was' : 'were'}`;
    yield (
      `${who} decided by the session that rolled ${one ? 'it' : 'them'}: ${one ? 'its verdict is' : 'their verdicts are'} the session's, made once at its own error control ` +
      `where its monitor stopped (as dicerig report shows ${one ? 'it' : 'them'}); the fixed-n figures beside ${one ? 'it' : 'them'}, and the alpha and margin above, are descriptive only.`
    );
  }
  yield '';
  // A session's error control in its own words, under the first of its dice shown (the dice stream by, so not above).
  const controlShown = new Set<number>();
  for (const d of dice) {
    const first = d.decidedBy !== undefined && !controlShown.has(d.decidedBy);
    if (first) controlShown.add(d.decidedBy as number);
    yield formatDie(d, a, first);
    yield '';
  }
  if (a.homogeneity.length > 0) {
    yield 'Are the dice alike? (homogeneity across dice of one type)';
    for (const h of a.homogeneity) {
      const t = h.test;
      yield `  ${h.dieType} by ${h.level}, ${h.dice.length} dice: Pearson X² = ${fixed(t.pearson.statistic, 2)} (${t.pearson.df} df), p = ${formatLogScientific(t.pearson.logP)}; ` +
        `G p = ${formatLogScientific(t.g.logP)}; Cramér's V = ${fixed(t.cramersV, 3)}${mostDifferent(h.dice, h.names ?? h.labels, t.residuals, t.rowsUsed, t.columnsUsed)}` +
        (h.unresolved !== undefined ? `\n    ${homogeneityReading(h, a.alpha)}.` : '');
    }
    yield '';
  }
}

function formatDie(d: DieAnalysis, a: AnalysisHead, showControl = false): string {
  // The unresolved rolls are not among the read ones the tables count, but the session's "after N rolls" counts them.
  const rolls = d.unresolved !== undefined ? `${formatCountOf(d.n, 'roll')} read, ${formatCount(d.unresolved)} unresolved` : formatCountOf(d.n, 'roll');
  const lines = [`${d.label}  (${d.die.name}, ${rolls})`, `  ${d.sentence}`];
  const campaign = d.verdict.kind === 'RIG_SUSPECT' ? d.verdict.campaign : undefined;
  if (campaign !== undefined) {
    const said = d.sessionKind !== undefined ? `; the session itself said ${d.sessionKind}` : '';
    const on = d.decidedBy !== undefined ? `session ${d.decidedBy}, which ran on rig ${campaign.rig}` : 'every session that rolled it';
    lines.push(`  (campaign ${campaign.name}'s finding on ${on}${said}; the figures below are for diagnosis only)`);
  } else if (d.decidedBy !== undefined) {
    const from = d.decidedImportedFrom;
    const source =
      d.decidedIn !== undefined ? `as its export ${d.decidedIn} carries it` : from !== undefined ? `made by the session ${from.file} was exported from (its session ${from.session}) and imported with it` : 'as it stored it';
    lines.push(`  (session ${d.decidedBy}'s verdict, ${source}; the figures below are descriptive)`);
    // The alpha and correction above are the descriptive figures'; the verdict was made under the session's own.
    if (showControl && d.decidedUnder !== undefined) lines.push(`  session ${d.decidedBy}'s error control: ${d.decidedUnder}`);
  }
  if (d.partVerdicts !== undefined) {
    const each = d.partVerdicts.map((v) => `session ${v.session}: ${v.kind}`).join(', ');
    const how = d.across !== undefined ? 'made here across its sessions, on their e-values and intervals' : 'made here, fixed-n, on all its rolls';
    lines.push(`  (${how}; the sessions that rolled part of them each decided on their own: ${each})`);
  }
  lines.push(levelTable(d.symbol, a.certifyAlpha));
  lines.push(testLine(d, d.symbol));
  if (d.face) {
    lines.push(levelTable(d.face, a.certifyAlpha));
    lines.push(testLine(d, d.face));
  }
  for (const g of d.game) {
    const r = g.result;
    // With unresolved rolls the one range is the interval that holds whatever they were (the read rolls' rate alone can be far off).
    lines.push(
      g.widenedOver !== undefined && g.widenedOver > 0
        ? `  ${g.figure.description}: ${inPlayFigure(g, a.alpha, (x) => fixed(x)).value} (expected ${fixed(r.expected)}; ${inPlayFigure(g, a.alpha).note})`
        : `  ${g.figure.description}: ${fixed(r.rate)} (expected ${fixed(r.expected)}, ${signedPercent(r.relative)}; ${confidenceLabel(a.alpha)} interval ${fixed(r.interval.lower)}–${fixed(r.interval.upper)})`,
    );
  }
  const checks = d.serial.checks
    .map((c) => `${c.name} ${c.skipped ? 'skipped (too few rolls)' : `p = ${formatLogScientific(c.logP)}`}`)
    .join(', ');
  // Checks that could not run pass nothing: say so rather than "passed".
  const ran = d.serial.checks.filter((c) => !c.skipped).length;
  const outcome = d.serial.suspect ? 'SUSPECT' : ran === 0 ? 'not run: too few rolls' : ran < d.serial.checks.length ? `passed (${ran} of ${d.serial.checks.length} could run)` : 'passed';
  lines.push(`  rig checks: ${checks} -> ${outcome}`);
  // A session's die labelled after its UNFAIR decision: the e-value here moved, its sentence's did not; say so.
  const decidedOn = d.decidedBy !== undefined ? decidedOnWords(d.verdict, d.anytime.logE) : null;
  const decided = d.anytime.decidedAt !== null ? ` (${d.anytime.decision} after ${formatCountOf(d.anytime.decidedAt, 'roll')}${decidedOn !== null ? `; ${decidedOn}` : ''})` : '';
  // analyze's own e-value is of the symbols: it cannot see a bias between faces of one symbol, so the line says so.
  const of = d.anytime.level === 'symbol' ? ' of its symbols' : '';
  // Replayed with the unresolved rolls in their places: the e-value and decision hold whatever faces they had.
  const u = d.anytime.unresolved;
  const least = u !== undefined && u > 0 ? `, least favourable over the ${unresolvedWords(u)}` : '';
  lines.push(`  anytime-valid e-value against the expected odds${of}${least}: ${formatLogScientific(d.anytime.logE)}${decided}`);
  return lines.join('\n');
}

function levelTable(l: LevelAnalysis, alpha: number): string {
  const header = [l.level, 'count', 'observed', 'expected', `${confidenceLabel(alpha)} simultaneous`, 'deviation'];
  const rows = namesOf(l).map((label, i) => {
    const iv = l.intervals[i] as { lower: number; upper: number };
    return [
      label,
      formatCount(l.counts[i] as number),
      fixed(l.n > 0 ? (l.counts[i] as number) / l.n : Number.NaN),
      fixed(l.expected[i] as number),
      `${fixed(iv.lower)}–${fixed(iv.upper)}`,
      signedPercent(l.relativeDeviations[i] as number),
    ];
  });
  const table = renderTable(header, rows, 1, '    ').trimEnd();
  // Widened: each face's lower end with none of the unresolved rolls its, its upper end with all of them.
  return l.widenedOver !== undefined ? `${table}\n    (intervals widened over every face the ${unresolvedWords(l.widenedOver)} could have been; observed: of the read rolls)` : table;
}

function unresolvedWords(n: number): string {
  return n === 1 ? 'unresolved roll' : `${formatCount(n)} unresolved rolls`;
}

function testLine(d: DieAnalysis, l: LevelAnalysis): string {
  const adj = d.adjusted.find((x) => x.analysis === l);
  const exact = l.exact ? `; exact p = ${formatLogScientific(l.exact.logP)}` : '';
  return (
    `    by ${l.level}: Pearson X² = ${fixed(l.pearson.statistic, 2)} (${l.pearson.df} df), p = ${formatLogScientific(l.pearson.logP)}; ` +
    `G p = ${formatLogScientific(l.g.logP)}${exact}; adjusted p = ${adj ? formatLogScientific(adj.adjustedLogP) : '?'}; Cohen's w = ${fixed(l.cohensW)}`
  );
}

function mostDifferent(
  dice: readonly string[],
  labels: readonly string[],
  residuals: readonly (readonly number[])[],
  rowsUsed: readonly number[],
  colsUsed: readonly number[],
): string {
  let best = { z: 0, text: '' };
  residuals.forEach((row, i) =>
    row.forEach((z, j) => {
      if (Math.abs(z) > Math.abs(best.z)) best = { z, text: `${dice[rowsUsed[i] as number]} ${labels[colsUsed[j] as number]}` };
    }),
  );
  return best.text ? `; most different: ${best.text} (${best.z > 0 ? '+' : ''}${best.z.toFixed(1)} sd)` : '';
}
