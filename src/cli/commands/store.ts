import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { resolveDieRolls } from '../../analysis/dieRolls.js';
import { InputError } from '../../core/errors.js';
import { mergeLogs } from '../../rolllog/mergeLogs.js';
import { importThrows } from '../../rolllog/importThrows.js';
import { formatCount, shellWord } from '../../core/format.js';
import { DB_HELP, FLEET_DB_HELP, rollStorePath } from '../dbOption.js';
import { isFleetUrl } from '../../fleet/connect.js';
import { verifyFleet } from '../../fleet/fleetReader.js';
import { withFleet, withStoredSession } from '../storedSessions.js';
import { exportSession, type ExportFormat } from '../../store/exportSession.js';
import { importRolls, type ImportSource } from '../../store/importRolls.js';
import { CSV_MANIFEST_PREFIX } from '../../store/manifest.js';
import type { VerifyReport } from '../../store/records.js';
import { StoreError } from '../../store/errors.js';
import { openStoreForWriting, withReadableStore } from '../../store/openStore.js';
import { requireVerified } from '../../store/requireVerified.js';
import { checkEvidence, evidenceText, type EvidenceReport } from '../evidenceCheck.js';
import { checkDieOption, unusedDieNote } from '../dieOption.js';
import { importSettings } from '../importSettings.js';
import { checkExportTarget, commitStaged, discardStaged, stagedFile, type StagedFile } from '../exportTarget.js';
import { importedVerdicts, type ImportedVerdicts } from '../importedVerdicts.js';
import { loadDice } from '../loadDice.js';
import type { CliIo } from '../io.js';
import { toJson } from '../options.js';
import { manifestOf, withManifestsIfAny } from '../fileManifest.js';
import { ownDieTypes, withSessionDice } from '../../dice/sessionDice.js';
import { readLogs } from '../readLogs.js';
import { isExportFile, verifyExportFile } from '../verifyExport.js';
import { editedExports } from '../importEdited.js';



/** A chain head as `run` prints it: a SHA-256 in hex. */
const CHAIN_HEAD = /^[0-9a-fA-F]{64}$/;

/** Registers `dicerig verify`, `dicerig export` and `dicerig import`: the commands on the roll store. */
export function registerStoreCommands(program: Command, io: CliIo): void {
  program
    .command('verify')
    .summary('check the hash chain of every session in the roll store, or an export file against its seal')
    .description(
      'Walks the hash chain of every session in the roll store and reports, per session, the first throw that was changed, ' +
        'deleted, inserted or moved after it was recorded, and checks each evidence picture kept beside the store against the hash the chain sealed. ' +
        'Exit status 1 when a chain is broken or a picture changed.',
    )
    .argument('[db]', 'roll store file (same as --db), or an export file to check against its seal (and, with --db, against that store)')
    .option('--db <path>', FLEET_DB_HELP)
    .option('--json', 'print the report as JSON')
    .option('--expect <hash>', 'also check that a session still reaches this chain head (printed at the end of `run`, kept in export manifests) or review chain head (printed by `review`, in `sessions --json` and export manifests), so a cut-off tail is caught')
    .action(async (dbArg: string | undefined, flags: { db?: string; json?: boolean; expect?: string }) => {
      if (dbArg !== undefined && isExportFile(dbArg)) {
        if (flags.expect !== undefined) throw new InputError(`--expect checks a store; to check the export ${dbArg} against the store it came from, give --db STORE (its manifest names the chain head)`);
        await verifyExportFile(dbArg, flags, io);
        return;
      }
      if (dbArg !== undefined && flags.db !== undefined && dbArg !== flags.db) throw new InputError(`two databases given (${dbArg} and --db ${flags.db}); give one`);
      if (flags.expect !== undefined && !CHAIN_HEAD.test(flags.expect.trim())) {
        throw new InputError(`--expect ${flags.expect} is not a chain head: a chain head is 64 hex digits, as \`run\` prints it and export manifests keep it`);
      }
      if (isFleetUrl(dbArg ?? flags.db)) {
        await verifyFleetStore(dbArg ?? flags.db ?? '', flags, io);
        return;
      }
      const path = rollStorePath(dbArg ?? flags.db);
      let report: VerifyReport;
      let expected: ExpectedHead | undefined;
      let evidence: EvidenceReport | undefined;
      try {
        [report, expected, evidence] = await withReadableStore(
          path,
          ({ store }) => [store.verify(), flags.expect === undefined ? undefined : expectedHead(store.findChainHead(flags.expect.trim().toLowerCase()), store.reviewLog.findHead(flags.expect.trim().toLowerCase())), checkEvidence(path, store.evidenceFiles())] as const,
          (note) => io.err(`dicerig: note: ${note}\n`),
        );
      } catch (e) {
        // A store too damaged to open: that is the verification's answer.
        if (!(e instanceof StoreError) || e.where['reason'] !== 'damaged') throw e;
        // The opening error's own advice says to run verify, which is what is running: verify gives its own below.
        report = { ok: false, sessions: 0, throws: 0, rolls: 0, orphanRolls: 0, breaks: [], damage: [e.message.replace(/\s*To recover:[\s\S]*$/, '')] };
        if (flags.expect !== undefined) expected = { found: false, text: "no session's chain reaches the expected head: the store could not be read" };
      }
      const pictures = evidence === undefined ? [] : evidenceText(evidence);
      const recovery = report.damage !== undefined ? damagedStoreRecovery(path) : undefined;
      io.out(
        flags.json
          ? `${toJson({ db: path, ...report, ...(expected !== undefined ? { expected } : {}), ...(evidence !== undefined ? { evidence } : {}), ...(recovery !== undefined ? { recovery } : {}) })}\n`
          : verifyText(path, report) + pictures.map((l) => `${l}\n`).join('') + (expected !== undefined ? `${expected.text}\n` : '') + (recovery !== undefined ? `${recovery}\n` : ''),
      );
      if (!report.ok || expected?.found === false || (evidence?.changed.length ?? 0) > 0) io.setExitCode(1);
    });

  program
    .command('export')
    .summary('write a session’s counted rolls as CSV or JSON Lines, with a manifest')
    .description(
      'Writes one row per counted roll of a session (ok throws only) with throw index, die label, type, channel, face, symbol, ' +
        'confidence and classifier version, in a layout `dicerig analyze` reads. The session metadata goes in a manifest: the first line ' +
        'of JSON Lines; for CSV, FILE.manifest.json beside --out FILE, or a leading "# dicerig-manifest" comment line on standard output.',
    )
    .argument('<session>', 'session id or name')
    .option('--db <path>', FLEET_DB_HELP)
    .addOption(new Option('--format <format>', 'csv or jsonl (default: from the --out extension, else csv)').choices(['csv', 'jsonl']))
    .option('--out <file>', 'write to FILE instead of standard output')
    .option('--allow-unverified', 'export even when the store fails verification (a damaged or tampered store), with a warning')
    .option('--dice-file <file>', "JSON/YAML file with user-defined dice (a fleet session's campaign of such dice is analysed with them)")
    .option('--force', 'replace --out FILE (and its manifest) when they exist')
    .action(async (sessionKey: string, flags: { db?: string; format?: ExportFormat; out?: string; allowUnverified?: boolean; diceFile?: string; force?: boolean }) => {
      const format: ExportFormat = flags.format ?? (flags.out !== undefined && /\.(jsonl|ndjson)$/i.test(flags.out) ? 'jsonl' : 'csv');
      const sidecar = flags.out !== undefined && format === 'csv' ? `${flags.out}.manifest.json` : undefined;
      if (flags.out !== undefined) checkExportTarget(flags.out, sidecar, flags.db, flags.force === true);
      // With the dice known, a fleet session's campaign finding is read too, and travels in the manifest.
      await withStoredSession(flags.db, sessionKey, (line) => io.err(`${line}\n`), ({ store, session, campaign }) => {
        const { damaged } = requireVerified(store, session.id, flags.allowUnverified === true, (line) => io.err(`${line}\n`));
        const salvaged = damaged ? store.salvagedRolls(session.id) : undefined;
        if (salvaged) {
          io.err(`dicerig: warning: ${formatCount(salvaged.unreadable)} rolls could not be read from the damaged file; exporting the ${formatCount(salvaged.rolls.length)} counted rolls of session ${session.id} that could.\n`);
        }
        const exported = exportSession(store, session, format, new Date(), { ...(salvaged ? { salvaged } : {}), ...(campaign !== undefined ? { campaignFinding: campaign } : {}) });
        if (campaign !== undefined) io.err(`dicerig: ${campaign.sentence} The manifest carries the finding, so analyze, pool and report show its dice so too.\n`);
        const manifestLine = JSON.stringify(exported.manifest);
        const head = format === 'jsonl' ? [manifestLine] : flags.out === undefined ? [CSV_MANIFEST_PREFIX + manifestLine] : [];
        if (flags.out === undefined) writeLines(undefined, head, exported.lines(), io);
        else {
          // Staged and moved into place together: a failure leaves neither a half-written file nor rows without their manifest.
          const rows = stagedFile(flags.out);
          const staged = [...(sidecar !== undefined ? [stagedFile(sidecar)] : []), rows];
          try {
            if (sidecar !== undefined) writeFileSync((staged[0] as StagedFile).temp, `${JSON.stringify(exported.manifest, null, 2)}\n`);
            writeLines(rows.temp, head, exported.lines(), io);
            commitStaged(staged);
          } catch (e) {
            discardStaged(staged);
            throw e;
          }
          io.out(
            `Wrote ${formatCount(exported.manifest.exportedRolls)} rolls${reviewedNote(exported.manifest.reviewedRolls ?? 0, ': rows marked "reviewed"')}${unresolvedNote(exported.manifest.unresolvedRolls)} of session ${session.id}${session.name !== null ? ` (${session.name})` : ''} to ${flags.out}` +
              `${sidecar !== undefined ? `, manifest ${sidecar}` : ''}.\n`,
          );
        }
      }, loadDice(flags.diceFile));
    });

  program
    .command('import')
    .summary('store roll logs (the formats `analyze` reads) as a new session')
    .description(
      'Reads roll logs in the formats `dicerig analyze` reads (CSV, JSON Lines, one-hot) and stores them as one new session marked as imported, ' +
        'in one transaction: a bad file or line writes nothing. Each die keeps its roll order. A file with a throw column (as `export` writes) keeps its throws ' +
        '(renumbered 1, 2, 3... in order; each file\'s throws after the previous file\'s), and each roll its channel, confidence and classifier version; ' +
        'without one, throw i holds the i-th roll of every die. ' +
        'The session is simulated when the export manifests say so, or every row of a file is marked simulated.',
    )
    .argument('<files...>', 'roll logs')
    .option('--db <path>', DB_HELP)
    .option('--die <type>', 'die type for rolls whose log does not name one')
    .option('--dice-file <file>', 'JSON/YAML file with user-defined dice')
    .option('--session-name <name>', 'name for the new session')
    .option('--allow-edited', "import an export that differs from its seal as your own rolls: without the exported session's verdicts or settings, the session marked edited")
    .action((files: string[], flags: { db?: string; die?: string; diceFile?: string; sessionName?: string; allowEdited?: boolean }) => {
      // An export's manifest carries its session's config, with the definitions of its dice of the user's own.
      const dice = withSessionDice(loadDice(flags.diceFile), withManifestsIfAny(files).flatMap((m) => (m.manifest !== undefined ? [{ name: m.file, config: m.manifest.session['config'] }] : [])), flags.diceFile);
      checkDieOption(flags.die, dice);
      const layouts = dice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
      const parsed = readLogs(files, layouts, flags.die, true);
      const merged = mergeLogs(parsed);
      const rolls = merged.map((log) => resolveDieRolls(log, dice, flags.die));
      const unused = unusedDieNote(flags.die, parsed);
      if (unused !== undefined) io.err(unused);
      const read: ImportSource[] = parsed.map((p) => {
        const manifest = manifestOf(p.file);
        return { file: p.file, format: p.format, rows: p.rows, ...(p.simulatedRows !== undefined ? { simulatedRows: p.simulatedRows } : {}), ...(manifest !== undefined ? { manifest } : {}) };
      });
      // An export changed since it was sealed is refused, or with --allow-edited stored as the user's own rolls.
      const edited = editedExports(read, flags.allowEdited === true);
      for (const note of edited.notes) io.err(`dicerig: note: ${note}.\n`);
      const sources = edited.sources;
      const kept = edited.any ? {} : importSettings(sources);
      const keptVerdicts: ImportedVerdicts = edited.any ? { notes: [] } : importedVerdicts(parsed, sources, dice);
      for (const note of keptVerdicts.notes) io.err(`dicerig: note: ${note}.\n`);
      const path = rollStorePath(flags.db);
      const store = openStoreForWriting(path, { create: true });
      try {
        const result = importRolls(store, rolls, sources, {
          at: Date.now(),
          ...(kept.settings !== undefined ? { settings: kept.settings } : {}),
          ...(flags.sessionName !== undefined ? { name: flags.sessionName } : {}),
          ...(flags.die !== undefined ? { fallbackType: flags.die } : {}),
          // Kept with the session, so report and analyze judge its dice of the user's own with no dice file at hand.
          dieTypes: ownDieTypes(rolls.map((r) => r.die)),
          ...(keptVerdicts.verdicts !== undefined ? { verdicts: keptVerdicts.verdicts } : {}),
          // Which rolls were thrown together, and each roll's channel and read, when the files say: the copy is the session.
          throws: () => importThrows(parsed, merged),
        });
        const s = result.session;
        io.out(
          `Imported ${formatCount(result.rolls)} rolls${reviewedNote(result.reviewed, ', and stored so')}${result.unresolved > 0 ? ` and ${formatCount(result.unresolved)} unresolved (no face: every verdict holds whatever they were)` : ''} of ${result.dice} ${result.dice === 1 ? 'die' : 'dice'} from ${files.length} ${files.length === 1 ? 'file' : 'files'} ` +
            `into session ${s.id}${s.name !== null ? ` (${s.name})` : ''}${s.simulated ? ', simulated,' : ''} in ${path}.\n` +
            (kept.line !== undefined ? `${kept.line}\n` : '') +
            (keptVerdicts.verdicts !== undefined ? `It keeps the verdicts the exported session made: analyze, pool and report show them, as they do the file's.\n` : '') +
            (edited.any ? `Stored as your own rolls, edited since their export: not the exported session's evidence, judged on their rolls at the default settings; the session's config names the edits.\n` : ''),
        );
      } finally {
        store.close();
      }
    });
}

/** What an export or import says of the rolls a person labelled among those it counts. */
function reviewedNote(reviewed: number, how = ''): string {
  return reviewed > 0 ? ` (${formatCount(reviewed)} of them labelled by a person${how})` : '';
}

/** What an export says of the session's unresolved rolls beside its read ones. */
function unresolvedNote(unresolved: number | null): string {
  if (unresolved === null) return ' (its unresolved rolls could not be read from the damaged file)';
  return unresolved > 0 ? ` and ${formatCount(unresolved)} unresolved (no face: rows marked "unresolved", so a verdict on the file holds whatever they were)` : '';
}

/** Writes lines to a file or, in chunks, to standard output; each line ends with a newline. */
function writeLines(out: string | undefined, head: readonly string[], lines: Iterable<string>, io: CliIo): void {
  const fd = out === undefined ? undefined : openSync(out, 'w');
  try {
    let chunk: string[] = [...head];
    const flush = (): void => {
      if (chunk.length === 0) return;
      const text = `${chunk.join('\n')}\n`;
      if (fd === undefined) io.out(text);
      else writeSync(fd, text);
      chunk = [];
    };
    for (const line of lines) {
      chunk.push(line);
      if (chunk.length >= 4096) flush();
    }
    flush();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * What to do with a damaged local store (other commands' refusals send the user to verify, so verify must not send
 * them back): salvage copies every readable row of every table into a new store; export --allow-unverified and import
 * keep only each session's counted rolls, one session at a time.
 */
function damagedStoreRecovery(path: string): string {
  const db = shellWord(path);
  return (
    `To recover: copy everything still readable into a new store (dicerig salvage ${db} --out NEW.db: every table's rows, ` +
    `the rows the damage took counted, each session's chain checked) and use that one; ` +
    `or export what is still readable of each session (dicerig export SESSION --db ${db} --allow-unverified --out SESSION.csv: its counted rolls only) ` +
    `and import the files into a new store (dicerig import SESSION.csv --db NEW.db); or restore a backup of ${db}.`
  );
}

function verifyText(path: string, r: VerifyReport): string {
  const totals = `${formatCount(r.sessions)} ${r.sessions === 1 ? 'session' : 'sessions'}, ${formatCount(r.throws)} throws, ${formatCount(r.rolls)} rolls`;
  if (r.ok) return `${path}: ${totals}: every hash chain verifies.\n`;
  // A broken chain says rows changed after they were recorded, not who changed them: an edit by hand, or rows a
  // salvage of a damaged store could not read, break it alike.
  const lines = [`${path}: ${totals}: ${r.damage !== undefined ? 'DAMAGED' : 'CHAIN BROKEN (tampered with, or rows lost to damage)'}.`];
  // A session may break in several places (each listed): the count is of sessions.
  const broken = new Set(r.breaks.map((b) => b.sessionId)).size;
  if (r.breaks.length > 0) lines.push(`The hash chain is broken in ${formatCount(broken)} of ${formatCount(r.sessions)} ${r.sessions === 1 ? 'session' : 'sessions'}:`);
  for (const b of r.breaks) lines.push(`  session ${b.sessionId}${b.sessionName !== null ? ` (${b.sessionName})` : ''}: ${b.problem}`);
  for (const d of r.damage ?? []) lines.push(`The file is damaged: ${d}`);
  if (r.orphanRolls > 0) lines.push(`${formatCount(r.orphanRolls)} rolls belong to no throw (their throw was deleted).`);
  return `${lines.join('\n')}\n`;
}

/** `verify --db postgres://...`: every chain of the fleet store, re-checked per rig host (see `verifyFleet`). */
async function verifyFleetStore(url: string, flags: { json?: boolean; expect?: string }, io: CliIo): Promise<void> {
  await withFleet(url, async (fleet) => {
    const { report, head, reviewHead } = await verifyFleet(fleet, flags.expect?.trim().toLowerCase());
    const at = head ?? reviewHead;
    const where = at === undefined ? '' : `fleet session ${at.fleetSession.id} (session ${at.fleetSession.localId} of ${at.fleetSession.originHost})`;
    const expected: ExpectedHead | undefined =
      flags.expect === undefined
        ? undefined
        : head !== undefined
          ? { found: true, text: `${where} reaches the expected head (throw ${head.throwIndex} of ${head.throwCount}).` }
          : reviewHead !== undefined
            ? { found: true, text: `${where}'s reviews reach the expected review head (review ${reviewHead.reviewIndex} of ${reviewHead.reviewCount}).` }
            : expectedHead(undefined);
    if (flags.json === true) io.out(`${toJson({ db: fleet.where, ...report, ...(expected !== undefined ? { expected } : {}) })}\n`);
    else io.out(verifyText(fleet.where, report) + (report.notes ?? []).map((n) => `Note: ${n}.\n`).join('') + (expected !== undefined ? `${expected.text}\n` : ''));
    if (!report.ok || expected?.found === false) io.setExitCode(1);
  });
}

interface ExpectedHead {
  readonly found: boolean;
  readonly text: string;
}

/** What `verify --expect` says about a chain head written down elsewhere. */
function expectedHead(at: { sessionId: number; throwIndex: number; throwCount: number } | undefined, review?: { sessionId: number; reviewIndex: number; reviewCount: number }): ExpectedHead {
  // A review chain's head (review, sessions --json, export manifests) pins the reviews as a throw chain's head pins the throws.
  if (at === undefined && review !== undefined) return { found: true, text: `session ${review.sessionId}'s reviews reach the expected review head (review ${review.reviewIndex} of ${review.reviewCount}).` };
  if (at === undefined) {
    return { found: false, text: "EXPECTED HEAD MISSING: no session's chain reaches the expected head (neither its throws nor its reviews): the throws or reviews it pinned were removed or changed" };
  }
  return { found: true, text: `session ${at.sessionId} reaches the expected head (throw ${at.throwIndex} of ${at.throwCount}).` };
}
