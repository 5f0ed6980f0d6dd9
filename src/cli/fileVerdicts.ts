/**
 * The verdicts an export carries. `dicerig export` writes the session's stored verdicts into the file's manifest, and
 * a file holding a session's rolls of a die is that session's evidence: analyzing it must show the verdict the
 * session made, at its error control, where its monitor stopped (one verdict, made once), not a fixed-sample test
 * of rolls whose number the session's stopping rule chose. A verdict is taken only for a die whose rolls in the file
 * (read and unresolved) are as many as the session judged: a file cut short or added to is judged on its own rolls.
 */
import { formatCount } from '../core/format.js';
import type { DieType } from '../dice/types.js';
import { unresolvedCount, type ParsedLog } from '../rolllog/types.js';
import type { FileWithManifest } from './fileManifest.js';
import type { JudgedSources } from './storedLogs.js';
import { campaignFindingOf } from './campaignFindingOf.js';
import { storedDieVerdicts, withCampaignFinding, type StoredDieVerdict } from './storedVerdicts.js';
import { countsDiffer } from '../analysis/verdictCounts.js';
import { dieDifferenceText, sealDifferences } from '../store/exportSealCheck.js';
import { sealCheckOf } from './exportSealFile.js';

export interface FileVerdicts {
  readonly verdicts: Map<string, StoredDieVerdict[]>;
  /** Each file's session config as JSON (`{}` for a file without a manifest): the settings it ran with. */
  readonly configs: string[];
  /** What could not be taken, and why (one line each). */
  readonly notes: string[];
}

/**
 * The session verdicts the files' manifests carry, per die label (`manifests`: each log's file with its manifest;
 * `dice`: the known die types, to count a log of face ids by the symbols a session counted).
 */
export function fileVerdicts(logs: readonly ParsedLog[], manifests: readonly FileWithManifest[], dice: readonly DieType[]): FileVerdicts {
  const manifestOf = new Map(manifests.map((m) => [m.file, m.manifest]));
  const verdicts = new Map<string, StoredDieVerdict[]>();
  const configs: string[] = [];
  const notes: string[] = [];
  for (const log of logs) {
    const manifest = manifestOf.get(log.file);
    const session = manifest?.session.id;
    if (manifest === undefined || typeof session !== 'number') {
      configs.push(JSON.stringify(manifest?.session['config'] ?? {}));
      continue;
    }
    // A file edited since its export is not the session's evidence: the dice it changed (all, and its settings, when
    // its manifest's own fields changed) are judged on the file's rolls; the rest keep the session's verdict.
    const seal = sealCheckOf(log.file, manifest);
    const manifestEdited = seal.seal === 'removed' || seal.fields.length > 0;
    configs.push(JSON.stringify(manifestEdited ? {} : (manifest.session['config'] ?? {})));
    const own = new Map(storedDieVerdicts(manifest['verdicts'], session, log.file).map((v) => [v.label, v.verdict]));
    if (own.size === 0 && manifest['campaignFinding'] === undefined) continue;
    if (seal.seal === 'unsealed') notes.push(`${log.file}: its export carries no seal (made before exports were sealed), so its rows cannot be checked against its manifest`);
    if (manifestEdited) {
      notes.push(`${log.file}: ${sealDifferences(seal).join('; ')}: every die in it is judged here on the file's rolls, not by session ${session}'s verdicts`);
      continue;
    }
    const changed = new Map(seal.dice.map((d) => [d.label, d]));
    if (seal.reordered) notes.push(`${log.file}: ${sealDifferences(seal).join('; ')} (each die keeps session ${session}'s verdict)`);
    const finding = campaignFindingOf(manifest['campaignFinding']);
    for (const die of log.dice) {
      const verdict = own.get(die.label);
      const edited = changed.get(die.label);
      if (verdict !== undefined && edited !== undefined) {
        notes.push(`${log.file}: ${dieDifferenceText(edited)}: judged here on the file's rolls, not by session ${session}'s verdict`);
        continue;
      }
      const why = verdict === undefined ? undefined : notTheJudgedRolls(die, verdict, dice);
      if (why !== undefined) {
        notes.push(`${log.file}: ${why(session)}: judged here on the file's rolls, not by the session's verdict`);
        continue;
      }
      // A session on a rig its campaign found biased: its dice are RIG_SUSPECT, in the file as in the fleet.
      const taken = finding !== undefined ? withCampaignFinding(verdict, session, die.codes.length, finding) : verdict;
      if (taken !== undefined) verdicts.set(die.label, [...(verdicts.get(die.label) ?? []), taken]);
    }
  }
  return { verdicts, configs, notes };
}

/** Why a die's rolls in the file are not those `verdict` judged (as a sentence about the die), or undefined when they are. */
function notTheJudgedRolls(die: ParsedLog['dice'][number], verdict: StoredDieVerdict, dice: readonly DieType[]): ((session: number) => string) | undefined {
  const held = die.codes.length + unresolvedCount(die);
  if (verdict.rolls !== held) return (session) => `die ${die.label} has ${formatCount(held)} rolls here, but session ${session} judged ${verdict.rolls === undefined ? 'an unstated number' : formatCount(verdict.rolls)}`;
  const differs = countsDiffer(die, verdict, dice);
  if (differs !== undefined) return (session) => `die ${die.label}'s rolls here are not those session ${session} judged (it counted ${differs.then}; here ${differs.now}; edited, or a label corrected since)`;
  return undefined;
}

/** The stored sessions' verdicts joined with the files', and per die how many sources (sessions and files) hold its rolls. */
export function judgedSources(stored: JudgedSources, files: readonly ParsedLog[], fromFiles: FileVerdicts): JudgedSources {
  const verdicts = new Map<string, StoredDieVerdict[]>();
  for (const [label, vs] of stored.verdicts) verdicts.set(label, [...vs]);
  for (const [label, vs] of fromFiles.verdicts) verdicts.set(label, [...(verdicts.get(label) ?? []), ...vs]);
  const rolledIn = new Map(stored.rolledIn);
  for (const log of files) for (const d of log.dice) rolledIn.set(d.label, (rolledIn.get(d.label) ?? 0) + 1);
  return { verdicts, rolledIn };
}
