import { importedVerdictsClause, verdictsBehindWords, verdictsMadeWords } from './verdictsMade.js';
import { confidenceLabel, formatCount, formatLogScientific } from '../core/format.js';
import { VERSION } from '../core/version.js';
import { misreadLines } from '../stats/dieVerdict.js';
import { dieSection } from './dieSection.js';
import { resolutionTable } from './resolutionTables.js';
import { escapeHtml } from './escape.js';
import { editedImports, editedImportWords } from '../store/importedEdits.js';
import { inPlaceOfCopyWords } from './inPlaceOfCopy.js';
import { organiserTable } from './organiserTable.js';
import type { ReportChart } from './reportCharts.js';
import { REPORT_CSS } from './reportCss.js';
import { homogeneitySection, methodSection, rigHealthSection } from './sessionSections.js';
import { reportTitle, type SessionReport } from './sessionReport.js';

/**
 * The report as one self-contained HTML page: inline CSS and SVG charts, no
 * script, and a content security policy that forbids every network request,
 * so it opens the same from a USB stick as from a web server.
 */
export function renderReportHtml(report: SessionReport, charts: readonly ReportChart[]): string {
  const s = report.session;
  const title = `Dice report: ${reportTitle(report)}`;
  const dieLinks = report.dice.map((d) => `<a href="#die-${d.key}">${escapeHtml(d.analysis.label)}</a>`).join('');
  const a = report.analysis;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="dicerig ${VERSION}">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
${provenance(report)}
${notTheSessionsEvidence(report)}
<h1>${escapeHtml(title)}</h1>
${metaList(report)}
<nav class="toc"><a href="#summary">Verdicts</a>${dieLinks}<a href="#rig-health">Rig health</a><a href="#homogeneity">Are the dice alike?</a><a href="#method">How to read this</a></nav>
</header>
<main>
<section id="summary">
<h2>Verdicts</h2>
${verdictsNote(report)}
${organiserTable(report)}
${sessionVerdictNotes(report)}
<p class="sign">${escapeHtml(reportTitle(report))}, hash-chain head <span class="hash">${escapeHtml(s.headHash.slice(0, 16))}</span>: <code>dicerig verify</code> shows whether a roll was changed since.</p>
<p class="signature"><span>Checked by<span class="blank"></span></span><span>Date<span class="blank"></span></span></p>
</section>
${report.dice.map((d) => dieSection(d, charts.filter((c) => c.dieKey === d.key), a)).join('\n')}
${rigHealthSection(report)}
${homogeneitySection(report)}
${methodSection(report)}
</main>
<footer>Made by dicerig ${VERSION} on ${escapeHtml(formatUtc(report.generatedAt))}. Rolls recorded by dicerig ${escapeHtml(s.softwareVersion)}.</footer>
</body>
</html>
`;
}

/** What the verdicts rest on: the session's own error control when it stored its verdicts, else the analysis's. */
function verdictsNote(report: SessionReport): string {
  const a = report.analysis;
  const v = report.verdicts;
  // A stored verdict's bound is the session's own intervals, at its level per die; else the analysis's.
  const level = v !== null ? `${confidenceLabel(v.errorControl.alphaPerDie)} anytime-valid, the session’s own intervals` : `${confidenceLabel(a.certifyAlpha)} simultaneous`;
  const certified = `<em>Certified within</em>: the largest deviation from the published odds any face could still have (${level}).`;
  // A campaign's finding comes first: the table shows it, not the session's own verdicts.
  const campaign =
    report.campaign !== undefined
      ? `<p class="note campaign-finding" data-campaign="${escapeHtml(report.campaign.campaign)}">${escapeHtml(report.campaign.sentence)} Every die below is RIG_SUSPECT by it; the session's own verdicts, made before the campaign compared its rigs, are kept below as it made them.</p>\n`
      : '';
  return campaign + ownNote(report, certified);
}

function ownNote(report: SessionReport, certified: string): string {
  const a = report.analysis;
  const v = report.verdicts;
  if (v !== null) {
    return (
      `<p class="note" data-error-control="session" data-threshold="${v.errorControl.threshold}">${escapeHtml(verdictsMadeWords(v, importedVerdictsClause(v)))}: ${escapeHtml(v.errorControl.statement)} ` +
      `FAIR_WITHIN margin ±${v.dice[0]?.delta ?? a.delta}. ${certified} <em>e-value</em>: the session’s anytime-valid evidence against fairness, least favourable over its unresolved rolls.${escapeHtml(descriptiveSettings(report))}</p>` +
      behindNote(report)
    );
  }
  return (
    `<p class="note">α = ${a.alpha} per verdict across ${a.family} tests; FAIR_WITHIN margin ±${a.delta}. ${certified} ` +
    `<em>e-value</em>: the anytime-valid evidence against fairness (above ${formatLogScientific(Math.log(a.family / a.alpha))} means UNFAIR however early the rolling stopped).</p>`
  );
}

function behindNote(report: SessionReport): string {
  const words = verdictsBehindWords(report.rollsSinceVerdicts);
  return words === undefined ? '' : `\n<p class="note verdicts-behind" data-rolls-since="${report.rollsSinceVerdicts}">${escapeHtml(words)}</p>`;
}

/** Said when the report was asked for another α or margin than the session's: they change only its descriptive figures. */
export function descriptiveSettings(report: SessionReport): string {
  const v = report.verdicts;
  const a = report.analysis;
  if (v === null) return '';
  const asked = [...(a.alpha !== v.errorControl.alpha ? [`α = ${a.alpha}`] : []), ...(a.delta !== (v.dice[0]?.delta ?? a.delta) ? [`margin ±${a.delta}`] : [])];
  if (asked.length === 0) return '';
  return ` The ${asked.join(' and ')} this report was asked for ${asked.length === 1 ? 'applies' : 'apply'} only to its descriptive figures (the tables of numbers, fixed-n p-values), not to the verdicts.`;
}

/** Below the verdicts of a sequential session: what the misread assumption was, that fixed-n p-values are descriptive, and how the rolls were resolved. */
function sessionVerdictNotes(report: SessionReport): string {
  const v = report.verdicts;
  if (v === null) return resolutionTable(report.resolution);
  return [
    ...misreadLines(v.dice, report.rigHealth.counts).map((line) => `<p class="note" data-misreads>${escapeHtml(line)}</p>`),
    `<p class="note" data-descriptive="true">${escapeHtml('Fixed-n p-values in this report are descriptive only: the session stopped each die when its monitor decided, and the verdicts rest on the anytime-valid e-values.')}</p>`,
    resolutionTable(report.resolution),
  ].join('\n');
}

function provenance(report: SessionReport): string {
  const s = report.session;
  const imported = s.origin === 'import' ? ' Imported from roll logs.' : '';
  if (s.simulated) {
    return (
      `<p class="provenance simulated" id="provenance" data-simulated="true"><strong>SIMULATED SESSION.</strong> Every roll in this report comes from a simulation, ` +
      `not from physical dice: it shows how the checks work and says nothing about any real die.${imported}</p>`
    );
  }
  const rig = report.rig ? ` on rig ${escapeHtml(report.rig.rigId)} (${escapeHtml(report.rig.driver)} driver, firmware ${escapeHtml(report.rig.firmware)})` : '';
  return `<p class="provenance real" id="provenance" data-simulated="false"><strong>Real dice.</strong> The rolls in this report were recorded from physical dice${rig}.${imported}</p>`;
}

/**
 * Said in the header, before any verdict: a fleet copy's report in whose place this one is (the copy has no verdicts
 * of its own: its rolls count once, as this session's), and an import of an edited export (its rolls are the user's
 * own, with no session verdict).
 */
function notTheSessionsEvidence(report: SessionReport): string {
  const edited = editedImportWords(editedImports(report.session.configJson));
  const copy = report.inPlaceOf;
  return [
    ...(copy !== undefined ? [`<p class="provenance copy" id="in-place-of-copy" data-copy="${copy.copy.id}" data-copy-of="${copy.copyOf.of}"><strong>IN PLACE OF A COPY.</strong> ${escapeHtml(inPlaceOfCopyWords(copy))}</p>`] : []),
    ...(edited !== undefined ? [`<p class="provenance edited" id="edited" data-edited="true"><strong>EDITED EXPORT.</strong> ${escapeHtml(`This session was ${edited}: the verdicts below are judged on those rolls at the default settings, and are no session's verdicts.`)}</p>`] : []),
  ].join('\n');
}

function metaList(report: SessionReport): string {
  const s = report.session;
  const c = report.rigHealth.counts;
  const items: [string, string][] = [
    ['started', formatUtc(s.startedAt)],
    [s.endedAt === null ? 'state' : `${s.state}`, s.endedAt === null ? `${s.state} (not ended)` : formatUtc(s.endedAt)],
    ['dice', formatCount(report.dice.length)],
    ['throws', formatCount(c.throws)],
    ['counted rolls', formatCount(c.countedRolls)],
    ['rig', report.rig ? `${report.rig.rigId} (${report.rig.driver})` : s.origin === 'import' ? 'imported' : 'not recorded'],
  ];
  return `<dl class="meta">${items.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>`;
}

/** A time as `2023-11-14 22:13:20 UTC` (the report is read in other time zones than it was made in). */
export function formatUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
