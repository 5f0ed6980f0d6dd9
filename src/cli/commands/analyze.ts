import { Option, type Command } from 'commander';
import { analyzeDiceStream, type AnalysisStream, type Multiplicity } from '../../analysis/analyze.js';
import { judgeAcrossSessions } from '../../analysis/acrossSessions.js';
import { homogeneityWhateverUnresolved } from '../../analysis/homogeneityUnresolved.js';
import { withSessionVerdict } from '../../analysis/sessionVerdict.js';
import { holdWhateverUnresolved } from '../../analysis/unresolvedRolls.js';
import { widenedFigures } from '../../analysis/widenedFigures.js';
import { analysisTextParts } from '../format/analysisText.js';
import { analysisJsonParts } from '../format/analysisJson.js';
import { checkDieOption } from '../dieOption.js';
import { readJudgedLogs } from '../judgedLogs.js';
import { loadDice } from '../loadDice.js';
import { writeParts, type CliIo } from '../io.js';
import { probabilityArg } from '../options.js';
import { FALLBACK_SETTINGS } from '../../report/storedSessionReport.js';
import { FLEET_DB_HELP } from '../dbOption.js';
import { asPart, decidedBySession, decidedBySessions, readStoredLogs, setAsideLine, splitSources, type StoredDieVerdict } from '../storedLogs.js';

interface AnalyzeFlags {
  die?: string;
  diceFile?: string;
  alpha?: number;
  delta?: number;
  multiplicity: Multiplicity;
  serialAlpha?: number;
  json?: boolean;
  db?: string;
  allowUnverified?: boolean;
}

export function registerAnalyzeCommand(program: Command, io: CliIo): void {
  program
    .command('analyze')
    .description('Read roll logs and give a verdict per die: UNFAIR, FAIR_WITHIN(delta), INCONCLUSIVE (with the rolls still needed) or RIG_SUSPECT.')
    .argument('<files...>', 'roll logs: CSV with die and face/symbol columns, JSON Lines, or one-hot File,<symbol>... files (one die per file); with --db, also session ids or names')
    .option('--die <type>', 'die type for rolls whose log does not name one (red, green, d6, d3, direction, or one from --dice-file)')
    .option('--dice-file <file>', 'JSON/YAML file with user-defined dice')
    .option('--alpha <p>', 'error rate of each verdict (default: the sessions’ own, when every source is a stored session or a session’s export and they agree; else 0.05)', probabilityArg)
    .option('--delta <d>', 'FAIR_WITHIN margin: every face within expected ± delta (absolute probability; default: the sessions’ own, as for --alpha; else 0.03)', probabilityArg)
    .addOption(new Option('--multiplicity <method>', 'control across dice: holm (family-wise) or bh (false discovery rate, for screening)').choices(['holm', 'bh']).default('holm'))
    .option('--serial-alpha <p>', 'family-wise error rate of each die’s rig checks (default: the sessions’ own, as for --alpha; else 0.01)', probabilityArg)
    .option('--json', 'print the full analysis as JSON')
    .option('--db <path>', `with --db, a source that is not a file is a session id or name in this store: ${FLEET_DB_HELP}`)
    .option('--allow-unverified', 'analyze stored sessions even when their store fails verification (a damaged or tampered store), with a warning')
    .action(async (sources: string[], flags: AnalyzeFlags) => {
      const dice = loadDice(flags.diceFile);
      checkDieOption(flags.die, dice);
      // Without --db every source is a file (a missing one is reported as such).
      const { files, keys } = flags.db === undefined ? { files: sources, keys: [] } : splitSources(sources);
      // A fleet session's dice are RIG_SUSPECT where its campaign found its rig biased, as campaign report shows them.
      const stored = await readStoredLogs(keys, flags.db, { allowUnverified: flags.allowUnverified === true, warn: (line) => io.err(`${line}\n`), doing: 'analyzed' }, dice, { suspect: 'mark' });
      for (const s of stored.sessions) if (s.campaign !== undefined) io.err(`dicerig: note: ${setAsideLine(s, s.campaign)}.\n`);
      const { rolls, judged, unresolvedOf, agreed, simulated } = readJudgedLogs(files, stored, dice, flags.die, io, flags.diceFile);
      // Sessions (stored, or exported with their manifests) are judged at their own settings unless told otherwise, as `report` judges one session.
      const pick = (key: 'alpha' | 'delta' | 'serialAlpha') => flags[key] ?? agreed[key] ?? FALLBACK_SETTINGS[key];
      const fromSessions = (['alpha', 'delta', 'serialAlpha'] as const).filter((k) => flags[k] === undefined && agreed[k] !== undefined);
      const analysed = analyzeDiceStream(rolls, { alpha: pick('alpha'), delta: pick('delta'), multiplicity: flags.multiplicity, serialAlpha: pick('serialAlpha') });
      // A die one stored session decided shows that session's verdict (one verdict, one error control); any other
      // die's verdict, made here, must hold whatever its unresolved rolls (not in its logs) were.
      const settings = { alpha: analysed.alpha, certifyAlpha: analysed.certifyAlpha, delta: analysed.delta, family: analysed.family };
      const sessionParts = (label: string) => decidedBySession(judged, label);
      const sessionsOf = (label: string) => decidedBySessions(judged, label);
      // Rolled only in sessions whose campaign found their rig biased: RIG_SUSPECT by that finding, nothing to combine.
      const setAsideByCampaign = (label: string): boolean => {
        const own = sessionParts(label) !== undefined ? [sessionParts(label) as StoredDieVerdict] : sessionsOf(label);
        return own !== undefined && own.every((v) => v.campaign !== undefined);
      };
      const analysis: AnalysisStream = {
        ...analysed,
        ...(fromSessions.length > 0 ? { settingsFromSessions: fromSessions } : {}),
        ...(simulated !== undefined ? { simulated } : {}),
        ...unresolvedTotal(rolls.map((r) => unresolvedOf.get(r.label) ?? 0)),
        sessionVerdicts: [...judged.verdicts.keys()].filter((label) => sessionParts(label)?.parts !== undefined && !setAsideByCampaign(label)).length,
        acrossSessions: [...judged.verdicts.keys()].filter((label) => sessionsOf(label) !== undefined && !setAsideByCampaign(label)).length,
        campaignSetAside: [...judged.verdicts.keys()].filter(setAsideByCampaign).length,
        homogeneity: homogeneityWhateverUnresolved(analysed.homogeneity, (label) => unresolvedOf.get(label) ?? 0, analysed.alpha),
        dice: function* () {
          for (const read of analysed.dice()) {
            const unresolved = unresolvedOf.get(read.label) ?? 0;
            // Its figures hold whatever its unresolved rolls were, whoever made its verdict (the session's verdict keeps its own).
            const d = unresolved > 0 ? { ...widenedFigures(read, unresolved, settings), unresolved } : read;
            const own = sessionParts(d.label);
            if (own?.parts !== undefined) {
              yield { ...withSessionVerdict(d, own.parts, own.session, own.file, own.importedFrom), ...(own.sessionKind !== undefined ? { sessionKind: own.sessionKind } : {}) };
              continue;
            }
            const parts = (judged.verdicts.get(d.label) ?? []).map((v) => ({ session: v.session, kind: v.kind, sentence: v.sentence }));
            const several = sessionsOf(d.label);
            if (several !== undefined && setAsideByCampaign(d.label)) {
              // Every session that rolled it ran on a rig its campaign set aside: there is no evidence of the die to combine.
              const first = several[0] as StoredDieVerdict;
              yield withSessionVerdict(d, first.parts as NonNullable<StoredDieVerdict['parts']>);
              continue;
            }
            if (several !== undefined) {
              // Rolled in several stored sessions: judged on their evidence together, never by a fixed-n test.
              yield judgeAcrossSessions({ ...d, partVerdicts: parts }, several.map(asPart), settings);
              continue;
            }
            const made = holdWhateverUnresolved(d, unresolved, settings);
            yield parts.length > 0 ? { ...made, partVerdicts: parts } : made;
          }
        },
      };
      // Written die by die, each die's analysis made as it is written and then dropped.
      if (flags.json) writeParts(io, jsonParts(analysis));
      else writeParts(io, analysisTextParts(analysis, analysis.dice()), '\n');
    });
}

function* jsonParts(analysis: AnalysisStream): Generator<string> {
  yield* analysisJsonParts(analysis, analysis.dice());
  yield '\n';
}

/** The analysed dice's unresolved rolls in all, for the header (absent when none). */
function unresolvedTotal(counts: readonly number[]): { unresolvedRolls?: number } {
  const total = counts.reduce((a, b) => a + b, 0);
  return total > 0 ? { unresolvedRolls: total } : {};
}
