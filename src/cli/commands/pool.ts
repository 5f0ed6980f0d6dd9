import { Option, type Command } from 'commander';
import { analyzeDice } from '../../analysis/analyze.js';
import { InputError } from '../../core/errors.js';
import { combineSessions } from '../../analysis/acrossSessions.js';
import { holdWhateverUnresolved } from '../../analysis/unresolvedRolls.js';
import { poolIntervalLevel, selectPool } from '../../stats/pool.js';
import { confidenceLabel, fixed, formatCount, shellWord } from '../../core/format.js';
import { FLEET_DB_HELP } from '../dbOption.js';
import { FALLBACK_SETTINGS } from '../../report/storedSessionReport.js';
import { asPart, decidedBySession, decidedBySessions, readStoredLogs, setAsideLine, splitSources, storedSessionName, type StoredDieVerdict } from '../storedLogs.js';
import { renderTable } from '../../core/textTable.js';
import { checkDieOption } from '../dieOption.js';
import { readJudgedLogs } from '../judgedLogs.js';
import { loadDice } from '../loadDice.js';
import type { CliIo } from '../io.js';
import { positiveIntArg, probabilityArg, toJson } from '../options.js';
import { sameDieId } from '../../dice/catalogue.js';
import { sessionIntervalsAt } from '../../analysis/sessionIntervalsAt.js';
import { SIMULATED_WORDS, simulatedLine } from '../simulatedSources.js';

interface PoolFlags {
  size: number;
  colour?: string;
  die?: string;
  diceFile?: string;
  level: 'symbol' | 'face';
  alpha?: number;
  json?: boolean;
  db?: string;
  allowUnverified?: boolean;
}

export function registerPoolCommand(program: Command, io: CliIo): void {
  program
    .command('pool')
    .description('Pick the N fairest, best-balanced dice of one type for a shared tournament pool, with the pool’s certified delta.')
    .argument('<sources...>', 'roll logs (as for analyze) and/or session ids or names in the roll store (--db); a path that exists is read as a file')
    .requiredOption('--size <n>', 'dice in the pool', positiveIntArg)
    .option('--colour <type>', 'die type to pool (red, green, d6...); needed when the logs hold several types')
    .option('--die <type>', 'die type for rolls whose log does not name one')
    .option('--dice-file <file>', 'JSON/YAML file with user-defined dice')
    .addOption(new Option('--level <level>', 'rank by symbols or by physical faces').choices(['symbol', 'face']).default('symbol'))
    .option('--alpha <p>', 'error rate: dice rejected at this level (Holm over all dice) are excluded; each die’s intervals are at it over the dice, so the pool’s bound holds at it (default: the sessions’ own, when every source is a stored session or a session’s export and they agree; else 0.05)', probabilityArg)
    .option('--json', 'print the pool as JSON')
    .option('--db <path>', FLEET_DB_HELP)
    .option('--allow-unverified', 'pool stored sessions even when their store fails verification (a damaged or tampered store), with a warning')
    .action(async (sources: string[], flags: PoolFlags) => {
      const dice = loadDice(flags.diceFile);
      checkDieOption(flags.die, dice);
      const { files, keys } = splitSources(sources);
      // A fleet session on a rig its campaign found biased is left out: its rolls show the rig as much as the dice, and
      // a pool certified on them would certify the rig. Said in the output, never silently.
      const stored = await readStoredLogs(keys, flags.db, { allowUnverified: flags.allowUnverified === true, warn: (line) => io.err(`${line}\n`), doing: 'pooled' }, dice, { suspect: 'leave-out' });
      const leftOut = stored.setAside.map((x) => `${setAsideLine(x.session, x.finding)}; its rolls are left out of the pool`);
      if (stored.sessions.length === 0 && files.length === 0 && stored.setAside.length > 0) {
        throw new InputError(`nothing to pool: every session named is on a rig its campaign found biased. ${leftOut.join('. ')}.`);
      }
      const { rolls, judged, unresolvedOf, agreed, simulated } = readJudgedLogs(files, stored, dice, flags.die, io, flags.diceFile);
      const types = [...new Set(rolls.map((r) => r.die.id))];
      const where = stored.sessions.length > 0 ? (files.length > 0 ? 'the logs and sessions' : 'the sessions') : 'the logs';
      const colour = flags.colour ?? (types.length === 1 ? types[0] : undefined);
      if (colour === undefined) throw new InputError(`${where} hold several die types (${types.join(', ')}): choose one with --colour`);
      const ofType = rolls.filter((r) => sameDieId(r.die.id, colour));
      if (ofType.length === 0) throw new InputError(`no dice of type "${colour}" in ${where} (found: ${types.join(', ') || 'no rolls'})`);
      // Sessions (stored, or exported with their manifests) are judged at their own alpha unless told otherwise, as analyze and report judge them.
      const alpha = flags.alpha ?? agreed.alpha ?? FALLBACK_SETTINGS.alpha;
      // The margin only names the verdicts shown beside the ranking (no die is left out for it): the sessions' own, as analyze's.
      const analysis = analyzeDice(ofType, { alpha, delta: agreed.delta ?? FALLBACK_SETTINGS.delta });
      // A die one session decided, all of its rolls from that session: its verdict and intervals are the session's own.
      const sessionsOf = (label: string) => decidedBySessions(judged, label);
      const decided = (label: string, labels: readonly string[]): StoredDieVerdict | undefined => {
        const v = decidedBySession(judged, label);
        return v?.faces !== undefined && v.faces.length === labels.length && v.faces.every((f, i) => f.label === labels[i]) ? v : undefined;
      };
      const levelIn = (d: (typeof analysis.dice)[number]) => (flags.level === 'face' ? d.face : d.symbol);
      const levelOf = (d: (typeof analysis.dice)[number]) => {
        const level = levelIn(d);
        if (level === undefined) throw new InputError(`die "${d.label}" has no face-level data (its log gives symbols, or its faces all differ): use --level symbol`);
        return level;
      };
      // A die whose rolls failed the rig checks (its session's or these) has no trustworthy estimate: keep it out and say why.
      const suspect = (d: (typeof analysis.dice)[number]): boolean => {
        const level = levelIn(d);
        return ((level !== undefined ? decided(d.label, level.labels)?.kind : undefined) ?? d.verdict.kind) === 'RIG_SUSPECT';
      };
      const rigSuspect = analysis.dice.filter(suspect).map((d) => ({ label: d.label, reason: 'rig checks failed (RIG_SUSPECT): its rolls may not be independent' }));
      const settings = { alpha: analysis.alpha, certifyAlpha: analysis.certifyAlpha, delta: analysis.delta, family: analysis.family };
      const eligible = analysis.dice.filter((d) => !suspect(d));
      // The level every candidate's intervals must hold at (the pool is picked by looking at all of them); a
      // session's own are at its share of its alpha, which can be above it: they are made again at this level.
      const intervalLevel = poolIntervalLevel(alpha, eligible.length);
      const candidates = eligible.map((d) => {
        const level = levelOf(d);
        const unresolved = unresolvedOf.get(d.label) ?? 0;
        const own = decided(d.label, level.labels);
        // Rolled in several stored sessions: judged as analyze judges it, on their e-values and intervals together.
        const several = own === undefined ? sessionsOf(d.label) : undefined;
        const across = several !== undefined ? combineSessions(several.map(asPart), level.expected, level.labels, settings) : undefined;
        // Ranked by the sessions' intervals at the pool's level: each session's at its share of it, so that the intersection holds there.
        const acrossAtLevel = several !== undefined ? combineSessions(several.map((v) => asPart(atLevel(v, intervalLevel / several.length))), level.expected, level.labels, settings) : undefined;
        // With unresolved rolls, the read rolls' test could reject a fair die whose reader declines one face: its
        // verdict must hold whatever they were, as analyze's does.
        const verdict = own?.kind ?? across?.decision ?? holdWhateverUnresolved(d, unresolved, settings).verdict.kind;
        const ownFaces = own !== undefined ? sessionIntervalsAt(own, intervalLevel) : undefined;
        const intervals = ownFaces?.map((f) => ({ lower: f.lower, upper: f.upper })) ?? acrossAtLevel?.intervals;
        const rejectedBecause =
          own?.kind === 'UNFAIR'
            ? `UNFAIR by the verdict of session ${own.session}, which decided it`
            : across?.decision === 'UNFAIR'
              ? `UNFAIR by the product of the e-values of the ${several?.length} sessions that rolled it`
              : undefined;
        return { label: d.label, counts: [...level.counts], expected: [...level.expected], rejected: verdict === 'UNFAIR', ...(rejectedBecause ? { rejectedBecause } : {}), verdict, ...(unresolved > 0 ? { unresolved } : {}), ...(intervals ? { intervals, bySession: true } : {}) };
      });
      const picked = selectPool(candidates, { size: flags.size, alpha });
      // A die rolled only in sessions left out for their campaign's finding has no rolls here: named, with why.
      const rolled = new Set(rolls.map((r) => r.label));
      const onBiasedRigsOnly = [...new Map(stored.setAside.flatMap((x) => x.dice.filter((d) => sameDieId(d.type, colour) && !rolled.has(d.label)).map((d) => [d.label, x] as const))).entries()].map(([label, x]) => ({
        label,
        reason: `RIG_SUSPECT: rolled only on rig ${x.finding.rig}, which campaign ${x.finding.campaign} found biased (dicerig campaign report ${shellWord(x.finding.campaign)})`,
      }));
      const selection = { ...picked, excluded: [...picked.excluded, ...rigSuspect, ...onBiasedRigsOnly] };
      const fromSessions = stored.sessions.map((s) => ({ id: s.fleetId ?? s.session.id, name: s.session.name, simulated: s.session.simulated }));
      if (flags.json) {
        io.out(
          `${toJson({ type: colour, level: flags.level, alpha, ...(simulated !== undefined ? { simulated } : {}), ...(fromSessions.length > 0 ? { sessions: fromSessions } : {}), ...(stored.setAside.length > 0 ? { leftOut: stored.setAside.map((x) => ({ id: x.session.fleetId ?? x.session.session.id, name: x.session.session.name, campaign: x.finding.campaign, rig: x.finding.rig, reason: x.finding.reason })) } : {}), ...selection, verdicts: Object.fromEntries(candidates.map((c) => [c.label, c.verdict])), rankedBySession: candidates.filter((c) => c.bySession === true && !c.rejected).map((c) => c.label), ...(judged.verdicts.size > 0 ? { sessionVerdicts: Object.fromEntries([...judged.verdicts].map(([label, vs]) => [label, vs.map(({ parts: _, partial: __, ...v }) => v)])) } : {}) })}\n`,
        );
        return;
      }
      const sessionsOnlyAllSimulated = simulated?.all === true && files.length === 0 && stored.sessions.length > 0;
      // Named by the pooled rolls' own die (a session's stored definition), not the dice file's or a built-in's die of that id.
      const pooledDie = (ofType[0] as (typeof ofType)[number]).die;
      const names = flags.level === 'face' ? pooledDie.faces.map((f) => f.id) : pooledDie.symbols;
      const out = [
        // Said as analyze says it, by the same rule: beside the sessions named when they are every source and all simulated.
        ...(stored.sessions.length > 0 ? [`From ${stored.sessions.map(storedSessionName).join(', ')}${sessionsOnlyAllSimulated ? ` (${SIMULATED_WORDS})` : ''}.`] : []),
        ...(simulated !== undefined && !sessionsOnlyAllSimulated ? [simulatedLine(simulated)] : []),
        ...(leftOut.length > 0 ? ['Left out:', ...leftOut.map((l) => `  ${l}.`)] : []),
        `Pool of ${flags.size} ${colour} dice from ${candidates.length}, ranked by the largest deviation any ${flags.level} could still have (${boundWords(candidates.some((c) => c.bySession === true), candidates.length, alpha)}).`,
        `Certified: every pool die is within ±${fixed(selection.certifiedDelta)} of the expected odds on every ${flags.level}.`,
        ...(selection.ranking.some((r) => r.unresolved > 0)
          ? ['Rolls the reader left unresolved (and nobody labelled) could be any face: the bounds of the dice with some hold whatever they were (dicerig review labels them).']
          : []),
        ...(candidates.some((c) => c.bySession === true)
          ? [
              "A die one session decided keeps that session's verdict and is ranked by its intervals (anytime-valid where the session stopped; made again from its counts at the pool's level where the session's own was looser); " +
                "a die rolled in several sessions is judged on their e-values together and ranked by their intervals intersected (each at its share of that level). A fixed-sample interval there would certify more than the sessions can.",
            ]
          : []),
        '',
        renderTable(
          ['rank', 'die', 'rolls', 'unresolved', 'certified ±', 'in pool'],
          selection.ranking.map((r, i) => [String(i + 1), r.label, formatCount(r.rolls), formatCount(r.unresolved), fixed(r.score), selection.pool.includes(r) ? 'yes' : '']),
          1,
          '  ',
        ).trimEnd(),
        '',
        'Balance of the pool (spread of the observed rates across its dice):',
        renderTable(
          [flags.level, 'observed range', 'spread'],
          selection.balance.map((b) => [names[b.face] ?? String(b.face), `${fixed(b.min)}–${fixed(b.max)}`, fixed(b.spread)]),
          1,
          '  ',
        ).trimEnd(),
      ];
      if (selection.excluded.length > 0) out.push('', 'Excluded:', ...selection.excluded.map((e) => `  ${e.label}: ${e.reason}`));
      if (judged.verdicts.size > 0) {
        out.push('', 'Verdicts as the sessions made them:', ...[...judged.verdicts].flatMap(([label, vs]) => vs.map((v) => `  ${label} (session ${v.session}${v.file !== undefined ? `, as its export ${v.file} carries it` : ''}): ${v.sentence}`)));
      }
      io.out(`${out.join('\n')}\n`);
    });
}

/** Which simultaneous bounds rank the dice: all at alpha over the candidates, the pool's own or the sessions' anytime-valid ones. */
function boundWords(bySession: boolean, all: number, alpha: number): string {
  // Every candidate's intervals are at alpha over the candidates (poolIntervalLevel): the dice are picked by them.
  const own = `${confidenceLabel(poolIntervalLevel(alpha, all))} simultaneous bound, alpha over the ${all} dice`;
  return bySession ? `${own}; for a die the sessions judged, their anytime-valid intervals at that level` : own;
}

/** A session's verdict on a die with its intervals at `level` (made again from its counts), or without them when they cannot be. */
function atLevel(v: StoredDieVerdict, level: number): StoredDieVerdict {
  const faces = sessionIntervalsAt(v, level);
  if (faces === undefined) {
    const { faces: _, ...rest } = v;
    return rest;
  }
  return { ...v, faces, alphaPerDie: Math.min(level, v.alphaPerDie ?? level) };
}
