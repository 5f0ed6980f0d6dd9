import { descriptiveSettings } from '../../report/reportHtml.js';
import { importedVerdictsClause, verdictsBehindWords, verdictsMadeWords } from '../../report/verdictsMade.js';
import { writeFileSync } from 'node:fs';
import { makeFolders } from '../../core/makeFolders.js';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { Multiplicity } from '../../analysis/analyze.js';
import { misreadLines } from '../../stats/dieVerdict.js';
import { sceneToPng } from '../../report/chart/png.js';
import { campaignSetAside, rollsText, verdictLabel } from '../../report/organiserTable.js';
import { reportCharts, type ReportChart } from '../../report/reportCharts.js';
import { renderReportHtml } from '../../report/reportHtml.js';
import { reportJson } from '../../report/reportJson.js';
import { reportTitle, type SessionReport } from '../../report/sessionReport.js';
import { storedSessionReport } from '../../report/storedSessionReport.js';
import { copyOfCopyWords, inPlaceOfCopyFailedWords, inPlaceOfCopyWords, reportInPlaceOfCopy, type InPlaceOfCopy } from '../../report/inPlaceOfCopy.js';
import { describeFleetSession } from '../../fleet/fleetReader.js';
import { FleetError } from '../../fleet/errors.js';
import { editedImports, editedImportWords } from '../../store/importedEdits.js';
import { fixed, formatCount, formatLogScientific } from '../../core/format.js';
import { FLEET_DB_HELP } from '../dbOption.js';
import { withStoredSession } from '../storedSessions.js';
import { requireVerified } from '../../store/requireVerified.js';
import { renderTable } from '../../core/textTable.js';
import { loadDice } from '../loadDice.js';
import { prepareReportFolder, recordReportOf, storeNamed } from '../reportFolder.js';
import { checkOutputFolder } from '../outputFile.js';
import { parsedConfig, withSessionDice } from '../../dice/sessionDice.js';
import type { CliIo } from '../io.js';
import { probabilityArg, toJson } from '../options.js';

interface ReportFlags {
  db?: string;
  out?: string;
  json?: boolean;
  diceFile?: string;
  alpha?: number;
  delta?: number;
  multiplicity: Multiplicity;
  serialAlpha?: number;
  allowUnverified?: boolean;
  force?: boolean;
}

/** The report's file name inside --out; the PNG charts go beside it. */
export const REPORT_FILE = 'report.html';

/** Registers `dicerig report <session>`: a self-contained HTML report of a stored session, with PNG charts beside it. */
export function registerReportCommand(program: Command, io: CliIo): void {
  program
    .command('report')
    .summary('write a self-contained HTML report (and PNG charts) of a stored session')
    .description(
      'Analyses a session from the roll store as `dicerig analyze` would and writes DIR/report.html: per die the verdict and what it means, ' +
        'face and symbol frequencies against the expected odds with simultaneous intervals, the anytime-valid evidence as rolls accumulated, ' +
        'the transition heatmap and the game figures; per session the rig health, homogeneity across dice and a table to print for a ' +
        'tournament organiser. The page needs no network; each chart is also written as a PNG beside it.',
    )
    .argument('<session>', 'session id or name')
    .option('--db <path>', FLEET_DB_HELP)
    .option('--out <dir>', 'folder to write the report into (created if missing; default: dicerig-report-<session id>, or dicerig-report-fleet-<fleet id> from a fleet store)')
    .option('--force', "write over the report of another session in the --out folder")
    .option('--json', 'print what was written and the verdicts as JSON')
    .option('--dice-file <file>', 'JSON/YAML file with user-defined dice (for sessions of user-defined types that do not keep their definitions: imported from plain logs, or recorded before sessions kept them)')
    .option('--alpha <p>', 'error rate of each verdict (default: the session’s own, else 0.05)', probabilityArg)
    .option('--delta <d>', 'FAIR_WITHIN margin: every face within expected ± delta (absolute probability; default: the session’s own, else 0.03)', probabilityArg)
    .addOption(new Option('--multiplicity <method>', 'control across dice: holm (family-wise) or bh (false discovery rate, for screening)').choices(['holm', 'bh']).default('holm'))
    .option('--serial-alpha <p>', 'family-wise error rate of each die’s rig checks (default: the session’s own, else 0.01)', probabilityArg)
    .option('--allow-unverified', 'write the report even when the store fails verification (a damaged or tampered store), with a warning')
    .action(async (sessionKey: string, flags: ReportFlags) => {
      const report = await readReport(sessionKey, flags, (line) => io.err(`${line}\n`));
      const charts = reportCharts(report);
      // A fleet session by its fleet id: two rig hosts' session 1 would otherwise write into one folder. A copy's report
      // (its original's, in its place) goes where the copy's was asked for.
      const fleet = report.inPlaceOf?.copy ?? report.fleet;
      const dir = flags.out ?? `dicerig-report-${fleet !== undefined ? `fleet-${fleet.id}` : report.session.id}`;
      const of = { store: storeNamed(flags.db), session: fleet !== undefined ? `fleet session ${fleet.id}` : `session ${report.session.id}` };
      checkOutputFolder('--out', dir);
      prepareReportFolder(dir, of, REPORT_FILE, flags.force === true);
      makeFolders(dir);
      const html = join(dir, REPORT_FILE);
      writeFileSync(html, renderReportHtml(report, charts));
      const pngs = await writeCharts(dir, charts);
      recordReportOf(dir, { ...of, charts: charts.map((c) => c.fileName) });
      io.out(flags.json ? `${toJson({ html, charts: pngs, ...reportJson(report) })}\n` : reportText(report, html, pngs.length));
    });
}

/** Charts encoded a few at a time: side by side on the machine's cores, without every chart's pixels in memory at once (a fleet report can have hundreds). */
async function writeCharts(dir: string, charts: readonly ReportChart[]): Promise<string[]> {
  const files = charts.map((c) => join(dir, c.fileName));
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < charts.length; i = next++) writeFileSync(files[i] as string, await sceneToPng((charts[i] as ReportChart).scene));
  };
  await Promise.all(Array.from({ length: Math.min(4, charts.length) }, worker));
  return files;
}

/** A fleet copy, found on reading: reported as the session whose rolls it holds. */
interface CopyFound {
  readonly copyFound: InPlaceOfCopy;
}

async function readReport(sessionKey: string, flags: ReportFlags, warn: (line: string) => void): Promise<SessionReport> {
  const asked = await readOne(sessionKey, flags, warn);
  if (!('copyFound' in asked)) return asked;
  // A fleet copy has no verdicts of its own: its rolls count once, as the session it copies, whose report (verdicts and
  // all, as its own report shows them) is written in its place, as analyze and pool judge that session in its place.
  const copy = asked.copyFound;
  warn(`dicerig: note: ${describeFleetSession(copy.copy)} is ${copy.copyOf.why}: reported as fleet session ${copy.copyOf.of}, whose rolls they are (the fleet counts them once, there, with that session's verdicts).`);
  const original = await readOne(String(copy.copyOf.of), flags, warn).catch((e: unknown) => {
    // The copy's own verdicts are not shown instead: they are not the fleet's.
    const why = e instanceof Error ? e.message : String(e);
    throw new FleetError(inPlaceOfCopyFailedWords(copy, why), { session: sessionKey }, { cause: e });
  });
  if ('copyFound' in original) throw new FleetError(copyOfCopyWords(copy, original.copyFound.copyOf), { session: sessionKey });
  return reportInPlaceOfCopy(original, copy);
}

function readOne(sessionKey: string, flags: ReportFlags, warn: (line: string) => void): Promise<SessionReport | CopyFound> {
  const known = loadDice(flags.diceFile);
  // A fleet session comes with its listing (the report is named by its fleet id) and its campaign's finding on it
  // (the campaign is analysed with the known dice, as campaign report analyses it).
  return withStoredSession(
    flags.db,
    sessionKey,
    warn,
    ({ store, session, fleet, campaign }): SessionReport | CopyFound => {
      if (fleet !== undefined && fleet.copyOf !== null) return { copyFound: { copy: fleet, copyOf: fleet.copyOf } };
      requireVerified(store, session.id, flags.allowUnverified === true, warn, 'written');
      return storedSessionReport(store, session, {
        // The session's own dice first: it is judged by the definitions it ran with.
        dice: withSessionDice(known, [{ name: `session ${session.id}`, config: parsedConfig(session.configJson) }], flags.diceFile),
        generatedAt: Date.now(),
        multiplicity: flags.multiplicity,
        ...(flags.alpha !== undefined ? { alpha: flags.alpha } : {}),
        ...(flags.delta !== undefined ? { delta: flags.delta } : {}),
        ...(flags.serialAlpha !== undefined ? { serialAlpha: flags.serialAlpha } : {}),
        ...(fleet !== undefined ? { fleet } : {}),
        ...(campaign !== undefined ? { campaign } : {}),
      });
    },
    known,
  );
}

function reportText(report: SessionReport, html: string, charts: number): string {
  const s = report.session;
  const rolls = report.dice.reduce((n, d) => n + d.analysis.n, 0);
  const unresolved = report.dice.reduce((n, d) => n + (d.resolution?.unresolved ?? 0), 0);
  const lines = [
    `Report of ${reportTitle(report)}${s.simulated ? ', SIMULATED' : ''}: ${report.dice.length} ${report.dice.length === 1 ? 'die' : 'dice'}, ${unresolved > 0 ? `${formatCount(rolls + unresolved)} rolls (${formatCount(rolls)} read or labelled, ${formatCount(unresolved)} unresolved)` : `${formatCount(rolls)} counted rolls`}; ${judgedWords(report)}`,
    ...notTheSessionsEvidenceLines(report),
    ...(report.campaign !== undefined ? [`Campaign ${report.campaign.campaign}'s finding on this session: ${report.campaign.sentence} Its dice are RIG_SUSPECT by it; the session's own verdicts follow as it made them.`] : []),
    renderTable(
      ['die', 'verdict', 'rolls', 'certified ±'],
      report.dice.map((d) => [d.analysis.label, verdictLabel(d.analysis.verdict), rollsText(d.analysis.n, d.resolution?.unresolved ?? 0), campaignSetAside(d.analysis.verdict) ? '-' : fixed(d.certifiedBound)]),
      2,
      '  ',
    ).trimEnd(),
    ...storedVerdictLines(report),
    `Wrote ${html} and ${charts} PNG charts beside it.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** As the report's header says them: a fleet copy in whose place this session is reported, an import of an edited export. */
function notTheSessionsEvidenceLines(report: SessionReport): string[] {
  const edited = editedImportWords(editedImports(report.session.configJson));
  return [
    ...(report.inPlaceOf !== undefined ? [`IN PLACE OF A COPY: ${inPlaceOfCopyWords(report.inPlaceOf)}`] : []),
    ...(edited !== undefined ? [`EDITED EXPORT: this session was ${edited}: the verdicts below are judged on those rolls at the default settings, and are no session's verdicts.`] : []),
  ];
}

/** At what the verdicts were made: the session's own level where it stored them (the report's options then made only the descriptive figures). */
function judgedWords(report: SessionReport): string {
  const v = report.verdicts;
  if (v === null) return `judged at α = ${report.analysis.alpha}, FAIR_WITHIN ±${report.analysis.delta}.`;
  return `the session's own verdicts, made at α = ${v.errorControl.alpha}, FAIR_WITHIN ±${v.dice[0]?.delta ?? report.analysis.delta}.${descriptiveSettings(report)}`;
}

/** The session's own verdicts, as it made them: threshold, e-value, anytime-valid p; resolved, reviewed and unresolved rolls. */
function storedVerdictLines(report: SessionReport): string[] {
  const v = report.verdicts;
  if (v === null) return [];
  const behind = verdictsBehindWords(report.rollsSinceVerdicts);
  return [
    `${verdictsMadeWords(v, importedVerdictsClause(v))}: ${v.errorControl.statement}`,
    ...(behind !== undefined ? [behind] : []),
    renderTable(
      ['die', 'verdict', 'e-value', 'threshold', 'anytime p', 'resolved', 'reviewed', 'unresolved'],
      v.dice.map((d) => [d.label, d.kind, formatLogScientific(d.logE), formatLogScientific(d.logThreshold), formatLogScientific(d.logAnytimeP), formatCount(d.resolved), formatCount(d.reviewed), formatCount(d.unresolved)]),
      2,
      '  ',
    ).trimEnd(),
    'Fixed-n p-values in the report are descriptive only: the session stopped each die when its monitor decided.',
    ...misreadLines(v.dice, report.rigHealth.counts),
    ...report.resolution.map(
      (r) => `  ${r.label}${r.rereadResolved !== undefined ? ` (${formatCount(r.rereadResolved)} read after a re-read)` : ''}: ${r.faces.map((f) => `${f.face} ${formatCount(f.read)}${f.reviewed > 0 ? ` (+${formatCount(f.reviewed)} reviewed)` : ''}`).join(', ')}; ${formatCount(r.unresolved)} unresolved`,
    ),
  ];
}
