import { descriptiveSettings } from '../../report/reportHtml.js';
import { verdictsBehindWords, verdictsMadeWords } from '../../report/verdictsMade.js';
import { writeFileSync } from 'node:fs';
import { makeFolders } from '../../core/makeFolders.js';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { Multiplicity } from '../../analysis/analyze.js';
import { misreadLines } from '../../stats/dieVerdict.js';
import { sceneToPng } from '../../report/chart/png.js';
import { campaignSetAside, rollsText, verdictLabel } from '../../report/organiserTable.js';
import { reportCharts } from '../../report/reportCharts.js';
import { renderReportHtml } from '../../report/reportHtml.js';
import { reportJson } from '../../report/reportJson.js';
import { reportTitle, type SessionReport } from '../../report/sessionReport.js';
import { storedSessionReport } from '../../report/storedSessionReport.js';
import { editedImports, editedImportWords } from '../../store/importedEdits.js';
import { fixed, formatCount, formatLogScientific } from '../../core/format.js';
import { FLEET_DB_HELP } from '../dbOption.js';
import { withStoredSession } from '../storedSessions.js';
import { requireVerified } from '../../store/requireVerified.js';
import { renderTable } from '../../core/textTable.js';
import { loadDice } from '../loadDice.js';
import { prepareReportFolder, recordReportOf, storeNamed } from '../reportFolder.js';
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
      // A fleet session by its fleet id: two rig hosts' session 1 would otherwise write into one folder.
      const dir = flags.out ?? `dicerig-report-${report.fleet !== undefined ? `fleet-${report.fleet.id}` : report.session.id}`;
      const of = { store: storeNamed(flags.db), session: report.fleet !== undefined ? `fleet session ${report.fleet.id}` : `session ${report.session.id}` };
      prepareReportFolder(dir, of, REPORT_FILE, flags.force === true);
      makeFolders(dir);
      const html = join(dir, REPORT_FILE);
      writeFileSync(html, renderReportHtml(report, charts));
      const pngs = charts.map((c) => {
        const file = join(dir, c.fileName);
        writeFileSync(file, sceneToPng(c.scene));
        return file;
      });
      recordReportOf(dir, { ...of, charts: charts.map((c) => c.fileName) });
      io.out(flags.json ? `${toJson({ html, charts: pngs, ...reportJson(report) })}\n` : reportText(report, html, pngs.length));
    });
}

function readReport(sessionKey: string, flags: ReportFlags, warn: (line: string) => void): Promise<SessionReport> {
  const known = loadDice(flags.diceFile);
  // A fleet session comes with its listing (the report is named by its fleet id) and its campaign's finding on it
  // (the campaign is analysed with the known dice, as campaign report analyses it).
  return withStoredSession(
    flags.db,
    sessionKey,
    warn,
    ({ store, session, fleet, campaign }) => {
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

/** As the report's header says them: an import of an edited export, a fleet copy of another session. */
function notTheSessionsEvidenceLines(report: SessionReport): string[] {
  const edited = editedImportWords(editedImports(report.session.configJson));
  const copy = report.fleet?.copyOf ?? null;
  return [
    ...(edited !== undefined ? [`EDITED EXPORT: this session was ${edited}: the verdicts below are judged on those rolls at the default settings, and are no session's verdicts.`] : []),
    ...(copy !== null ? [`A COPY: this fleet session is ${copy.why}: its rolls count once, as fleet session ${copy.of}'s, whose verdicts are the fleet's (dicerig report ${copy.of} --db URL).`] : []),
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
    `${verdictsMadeWords(v)}: ${v.errorControl.statement}`,
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
