/**
 * The rolls `analyze` and `pool` judge: the files' logs and the stored sessions' together, with the verdicts their
 * sessions made (a store's, or an export's manifest's), each die's unresolved rolls, and the settings the sessions
 * ran with. Refuses sources that would count one session twice; notes on standard error what it leaves out.
 */
import { refuseRepeatedRolls } from './repeatedRolls.js';
import { refuseSimulatedMix } from './simulatedMix.js';
import { resolveDieRolls } from '../analysis/dieRolls.js';
import type { DieType } from '../dice/types.js';
import { mergeLogs } from '../rolllog/mergeLogs.js';
import type { DieRolls, ParsedLog } from '../rolllog/types.js';
import { quoteValue } from '../rolllog/quoteValue.js';
import { unresolvedByLabel } from '../rolllog/unresolvedByLabel.js';
import { unusedDieNote } from './dieOption.js';
import { refuseSessionsCountedTwice, withManifestsIfAny } from './fileManifest.js';
import { fileVerdicts, judgedSources } from './fileVerdicts.js';
import type { CliIo } from './io.js';
import { readLogs } from './readLogs.js';
import { parsedConfig, withSessionDice } from '../dice/sessionDice.js';
import { fileKinds, simulatedSources, type SimulatedSources } from './simulatedSources.js';
import { sessionsSettings, storedSessionName, type JudgedSources, type readStoredLogs } from './storedLogs.js';
import { readDice } from './unreadDice.js';

export interface JudgedLogs {
  /** The dice with a read roll, matched to their types. */
  readonly rolls: DieRolls[];
  readonly judged: JudgedSources;
  /** Per die, its rolls the reader left unresolved (not in its read rolls: they could be any face), stored or exported. */
  readonly unresolvedOf: ReadonlyMap<string, number>;
  /** The decision settings every session (stored, or exported with its manifest) ran with, where they agree. */
  readonly agreed: { alpha?: number; delta?: number; serialAlpha?: number };
  /** The sources whose rolls are simulated (`simulatedSources`); absent when none is. */
  readonly simulated?: SimulatedSources;
}

export function readJudgedLogs(
  files: readonly string[],
  stored: Awaited<ReturnType<typeof readStoredLogs>>,
  dice: readonly DieType[],
  die: string | undefined,
  io: CliIo,
  diceFile?: string,
): JudgedLogs {
  // Each file's manifest, read once: it tells a session given twice, and carries the session's verdicts.
  const manifests = withManifestsIfAny(files);
  // A session's dice are judged by the definitions it ran with, kept in its config (and in its export's manifest).
  const judgedDice = withSessionDice(dice, [
    ...stored.sessions.map((s) => ({ name: storedSessionName(s), config: parsedConfig(s.session.configJson) })),
    ...manifests.flatMap((m) => (m.manifest !== undefined ? [{ name: m.file, config: m.manifest.session['config'] }] : [])),
  ], diceFile);
  const layouts = judgedDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
  // One export given twice (as CSV and as JSON Lines, say), or beside its session, would count its rolls twice.
  refuseSessionsCountedTwice(manifests, stored.sessions);
  const fileLogs = files.length > 0 ? readLogs(files, layouts, die) : [];
  // And without a manifest: the same rolls in the same order under two names (a copy of an export, say).
  const withManifest = new Set(manifests.filter((m) => m.manifest !== undefined).map((m) => m.file));
  refuseRepeatedRolls([...stored.logs, ...fileLogs], (file) => fileLogs.some((l) => l.file === file) && !withManifest.has(file));
  // Once the files say what they are (a manifest, or every row marked): a session beside a file of the other kind.
  refuseSimulatedMix(
    stored.sessions.map((s) => ({ name: storedSessionName(s), simulated: s.session.simulated })),
    fileKinds(manifests, fileLogs),
  );
  // A die whose rolls an export holds shows the verdict its session made, as the session does.
  const fromFiles = fileVerdicts(fileLogs, manifests, judgedDice);
  for (const note of [...stored.notes, ...fromFiles.notes, ...fileLogs.flatMap(reorderedNotes)]) io.err(`dicerig: note: ${note}.\n`);
  const resolved = mergeLogs([...fileLogs, ...stored.logs]).map((log) => resolveDieRolls(log, judgedDice, die));
  const { read: rolls, note: unreadNote } = readDice(resolved);
  if (unreadNote !== undefined) io.err(unreadNote);
  const unused = unusedDieNote(die, fileLogs);
  if (unused !== undefined) io.err(unused);
  const simulated = simulatedSources(stored.sessions, manifests, fileLogs);
  // The parsed logs are not returned: only the coded rolls are kept (a file of 600,000 rolls is not held twice).
  return {
    ...(simulated !== undefined ? { simulated } : {}),
    rolls,
    judged: judgedSources(stored, fileLogs, fromFiles),
    unresolvedOf: unresolvedByLabel(fileLogs, stored.unresolved),
    agreed: sessionsSettings([...stored.sessions.map((s) => s.session.configJson), ...fromFiles.configs]),
  };
}

/** What a file's dice whose rows were out of throw order were read as (`ParsedLog.reordered`). */
function reorderedNotes(log: ParsedLog): string[] {
  return (log.reordered ?? []).map(
    (d) => `${log.file}: die ${quoteValue(d.label)}'s rows are not in the order of their throws (line ${d.line} gives throw ${d.throwNo} after throw ${d.after}): its rolls are taken in throw order, the order they were rolled in`,
  );
}
