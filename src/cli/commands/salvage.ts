import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../../core/errors.js';
import { formatCount, formatCountOf, listWords, shellWord } from '../../core/format.js';
import { renderTable } from '../../core/textTable.js';
import { StoreError } from '../../store/errors.js';
import { openStoreForReading } from '../../store/openStore.js';
import type { ChainBreak, VerifyReport } from '../../store/records.js';
import { salvageStore, type SalvageResult } from '../../store/salvage.js';
import { evidenceClash } from '../../store/salvageEvidence.js';
import { keptSessions, type KeptSession } from '../../store/salvageSessions.js';
import { rollStorePath } from '../dbOption.js';
import { checkEvidence, evidenceText, type EvidenceReport } from '../evidenceCheck.js';
import { realTarget } from '../exportTarget.js';
import { checkOutputFile } from '../outputFile.js';
import type { CliIo } from '../io.js';
import { toJson } from '../options.js';

/** Exit status when the new store was written but rows of the damaged one could not be read or kept. */
export const ROWS_LOST_EXIT = 2;

interface SalvageFlags {
  out: string;
  json?: boolean;
  quiet?: boolean;
}

/** Registers `dicerig salvage DAMAGED.db --out NEW.db`: every readable row of a damaged store, in a new store. */
export function registerSalvageCommand(program: Command, io: CliIo): void {
  program
    .command('salvage')
    .summary('copy every row still readable of a damaged roll store into a new store')
    .description(
      'Reads a damaged roll store (one failing SQLite\'s integrity check: a torn write, a bad sector, a truncated copy) read-only, never writing it, ' +
        'and copies every row it can still read of every table, each with its id, into a new store file at the same schema version: the throws (void and re-tumbled ones too) ' +
        'and their rolls, events, reviews with their corrections, stored verdicts, sessions with their names, states and hash chains. A row whose referenced row was lost ' +
        '(a roll whose throw is gone) is counted as lost, not kept. The evidence pictures go with it, where its rows name them. ' +
        'Prints per table the rows copied and lost, and per session whether its chain verifies in the new store. ' +
        `Exit status 0 when nothing was lost, ${ROWS_LOST_EXIT} when rows were lost (the new store holds the rest), 1 when nothing was written (or nothing was lost but a chain does not verify, as verify says).`,
    )
    .argument('<db>', 'the damaged roll store file (read only)')
    .requiredOption('--out <file>', 'the new store file to write (it must not exist)')
    .option('--json', 'print the result as JSON')
    .option('--quiet', 'no progress on standard error')
    .action((db: string, flags: SalvageFlags) => {
      const from = rollStorePath(db);
      const to = resolve(flags.out);
      checkSalvageTarget(from, to, flags.out);
      let lastLine = Date.now();
      const result = salvageStore(from, to, (p) => {
        // Progress for a long salvage: at most one line a second.
        if (flags.quiet === true || Date.now() - lastLine < 1000) return;
        lastLine = Date.now();
        io.err(`salvage: ${p.table}: ${formatCount(p.doneUpTo)} of ${formatCount(p.last)} row ids read\n`);
      });
      const opened = openStoreForReading(to);
      let report: VerifyReport;
      let evidence: EvidenceReport;
      try {
        report = opened.store.verify();
        evidence = checkEvidence(to, opened.store.evidenceFiles());
      } finally {
        opened.close();
      }
      const sessions = keptSessions(to);
      const lost = result.tables.reduce((n, t) => n + t.unreadable + t.unkept, 0);
      const whole = lost === 0 && !result.tables.some((t) => t.endLost === true || t.definitionLost === true);
      if (flags.json === true) {
        io.out(`${toJson({ db: from, out: to, whole, lostRows: lost, ...jsonOf(result), sessions: sessions.map((s) => ({ ...s, breaks: report.breaks.filter((b) => b.sessionId === s.id) })), verify: report, evidence })}\n`);
      } else {
        io.out(salvageText(from, to, result, report, sessions, evidence, whole));
      }
      if (!whole) io.setExitCode(ROWS_LOST_EXIT);
      else if (!report.ok || evidence.changed.length > 0) io.setExitCode(1);
    });
}

/**
 * Refuses, before anything is written: an --out that is the damaged store itself (by any path or hard link) or one
 * of its files, an --out that exists, and a picture folder beside --out the damaged store's pictures would be mixed into.
 */
function checkSalvageTarget(from: string, to: string, given: string): void {
  if (!existsSync(from)) throw new StoreError(`There is no roll store at ${from}; nothing was written.`, { db: from });
  if (statSync(from).isDirectory()) throw new StoreError(`${from} is a folder, not a roll store file: give the store file itself; nothing was written.`, { db: from });
  if (statSync(from).size === 0) throw new StoreError(`${from} is an empty file (0 bytes), not a roll store: there is nothing in it to salvage; nothing was written. Restore a backup.`, { db: from });
  const store = realTarget(from);
  const same = existsSync(to) && statSync(to).ino === statSync(from).ino && statSync(to).dev === statSync(from).dev;
  if (same || [store, `${store}-wal`, `${store}-shm`, `${store}-journal`].includes(realTarget(to))) {
    throw new InputError(`--out ${given} is the store being salvaged (${from}) or one of its files: salvage never writes into the store it reads. Give a new file name; nothing was written`);
  }
  checkOutputFile('--out', given, { makesFolders: true });
  for (const f of [to, `${to}-wal`, `${to}-shm`]) {
    if (existsSync(f)) throw new InputError(`--out ${f} exists already: salvage writes a new store and never over a file. Give a new --out name; nothing was written`);
  }
  const clash = evidenceClash(from, to);
  if (clash !== undefined) {
    throw new InputError(`the picture folder ${clash} exists already beside --out: the pictures of ${from} would be copied into it, mixed with another store's. Give --out in another folder; nothing was written`);
  }
}

function jsonOf(r: SalvageResult): Record<string, unknown> {
  return {
    schemaVersion: r.schemaVersion,
    tables: r.tables,
    leftOut: r.leftOut,
    unkeptBySession: [...r.unkeptBySession].map(([session, tables]) => ({ session, ...Object.fromEntries(tables) })),
    evidencePictures: r.evidence,
    ...(r.schemaRepaired !== undefined ? { schemaRepaired: r.schemaRepaired } : {}),
    ...(r.tornPage === true ? { tornPage: true } : {}),
  };
}

const named = (s: { id: number; name: string | null }): string => `session ${s.id}${s.name !== null ? ` (${s.name})` : ''}`;

/** What a session lost, in its own counts (`1,076 of 2,000 throws`), from its session row and the rows not kept. */
function lossesOf(s: KeptSession, unkept: ReadonlyMap<string, number> | undefined): string[] {
  const parts: string[] = [];
  const ofRecorded = (kept: number, recorded: number | null, what: string): void => {
    if (recorded !== null && kept < recorded) parts.push(`${formatCount(recorded - kept)} of ${formatCountOf(recorded, what)}`);
  };
  ofRecorded(s.throws.kept, s.throws.recorded, 'throw');
  ofRecorded(s.events.kept, s.events.recorded, 'event');
  ofRecorded(s.reviews.kept, s.reviews.recorded, 'review');
  for (const [table, n] of unkept ?? []) parts.push(`${formatCount(n)} ${table} rows read but not kept (a row they refer to was lost)`);
  return parts;
}

function sessionLine(s: KeptSession, breaks: readonly ChainBreak[], unkept: ReadonlyMap<string, number> | undefined): string {
  const losses = lossesOf(s, unkept);
  const held = `${formatCountOf(s.throws.kept, 'throw')}, ${formatCountOf(s.rolls, 'roll')}${s.events.kept > 0 ? `, ${formatCountOf(s.events.kept, 'event')}` : ''}${s.reviews.kept > 0 ? `, ${formatCountOf(s.reviews.kept, 'review')}` : ''}`;
  if (breaks.length === 0 && losses.length === 0) return `  ${named(s)}: whole, its chain verifies (${held}).`;
  const first = breaks[0];
  const chain =
    first === undefined
      ? 'its chain still verifies'
      : `its chain does not verify in the new store (${first.problem}${breaks.length > 1 ? `, and ${formatCount(breaks.length - 1)} more` : ''}): commands that read it need --allow-unverified, as they did on the damaged store`;
  return `  ${named(s)}: ${losses.length > 0 ? `LOST ${losses.join(', ')}` : 'rows lost'}; ${chain}. It holds ${held}.`;
}

function salvageText(from: string, to: string, r: SalvageResult, report: VerifyReport, sessions: readonly KeptSession[], evidence: EvidenceReport, whole: boolean): string {
  const lines: string[] = [`Salvaged ${from} into ${to} (schema version ${r.schemaVersion}):`];
  const rows = r.tables.map((t) => [t.table, formatCount(t.copied), t.definitionLost === true ? 'all (see below)' : `${formatCount(t.unreadable)}${t.endLost === true ? ' + its end' : ''}`, formatCount(t.unkept)]);
  lines.push(renderTable(['table', 'rows copied', 'could not be read', 'read, not kept'], rows, 1, '  ').trimEnd());
  if (r.tornPage === true) lines.push(`  The file ends inside a page: that page was not read (SQLite would read its missing bytes as zeros, and keep rows half zeros), as if the file were cut before it.`);
  if (r.schemaRepaired !== undefined) {
    lines.push(`  The file's table of tables is damaged, so SQLite could not find the tables in it as they are: each was found by its entry wherever it still is in the file, and read from a copy (${from} is unchanged).`);
    for (const t of r.schemaRepaired.lost) lines.push(`  ${t}: its entry is nowhere in the file: none of its rows could be found, nor how many there were; the sessions below say what each lost.`);
    if (!r.schemaRepaired.logApplied) lines.push(`  Its write-ahead log (${from}-wal) could not be applied to the copy: what only it held is not in the new store.`);
  }
  for (const t of r.tables.filter((x) => x.endLost === true)) {
    lines.push(`  ${t.table}: its end could not be read: its last rows, and how many there were; the sessions below say what each lost.`);
  }
  for (const t of r.leftOut.filter((x) => x.rows !== 0)) lines.push(`  ${t.table}: ${t.rows === null ? 'its rows were' : `${formatCountOf(t.rows, 'row')} ${t.rows === 1 ? 'was' : 'were'}`} not copied: ${t.why}.`);
  const known = new Set(sessions.map((s) => s.id));
  lines.push(sessions.length === 0 ? 'No session could be kept.' : 'Sessions:');
  for (const s of sessions) lines.push(sessionLine(s, report.breaks.filter((b) => b.sessionId === s.id), r.unkeptBySession.get(s.id)));
  for (const [id, tables] of r.unkeptBySession) {
    if (known.has(id)) continue;
    lines.push(`  session ${id}: LOST: its session row could not be read, so ${listWords([...tables].map(([t, n]) => `${formatCount(n)} ${t} rows`))} of it read could not be kept.`);
  }
  if (r.evidence.inPlace) {
    if (evidence.checked > 0) lines.push(`Evidence pictures: the new store's rows name them in ${listWords(r.evidence.folders)} beside both stores, where they are; keep ${r.evidence.folders.length === 1 ? 'that folder' : 'those folders'} with ${to}.`);
  } else if (r.evidence.copied > 0) {
    lines.push(`Evidence pictures: copied ${formatCountOf(r.evidence.copied, 'file')} beside ${to}, to ${listWords(r.evidence.folders)} (the paths the rows name, sealed in their chain).`);
  }
  lines.push(...evidenceText(evidence));
  const unreadable = r.tables.reduce((n, t) => n + t.unreadable, 0);
  const unkept = r.tables.reduce((n, t) => n + t.unkept, 0);
  if (whole) {
    lines.push(report.ok ? 'Nothing was lost: every row of every table was copied, and every session\'s chain verifies.' : 'Nothing was lost: every row of every table was copied (the chains that do not verify did not in the damaged store either).');
  } else {
    const what = [unreadable > 0 ? `${formatCountOf(unreadable, 'row')} could not be read` : '', unkept > 0 ? `${formatCountOf(unkept, 'row')} read could not be kept` : '', r.tables.some((t) => t.endLost === true) ? 'the last rows of some tables could not be read' : '', r.tables.some((t) => t.definitionLost === true) ? 'the rows of tables whose entry was lost could not be found' : ''].filter((x) => x !== '');
    lines.push(`ROWS LOST: ${listWords(what)}; ${to} holds the rest. Use it in place of ${shellWord(from)}, and keep ${shellWord(from)} until you no longer need it (or restore a backup).`);
  }
  return `${lines.join('\n')}\n`;
}
