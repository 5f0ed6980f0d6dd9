import { Option, type Command } from 'commander';
import { DEFAULT_PLAN_SIMULATION, machineHours, parseDetectSpec, planCertification, planDetection, type DetectPlan, type FixedSampleDetection, type RigThroughput } from '../../analysis/plan.js';
import { formatDuration } from '../../session/progress.js';
import { getDieType } from '../../dice/catalogue.js';
import { distinctFigures, formatCount, formatCountOf, formatProbability } from '../../core/format.js';
import { InputError } from '../../core/errors.js';
import type { DieType } from '../../dice/types.js';
import { isD6Faced } from '../../dice/indexing.js';
import { d6CheckMisreadAssumption } from '../../vision/calibration/d6Check.js';
import { readD6CheckFile } from '../../vision-io/d6CheckFile.js';
import { D6_CHECK_COMMAND } from '../../session/d6CheckChoice.js';
import type { MisreadAssumption } from '../../stats/misreadRate.js';
import { profileMisreadAssumption } from '../../vision/calibration/profileMisreads.js';
import { narrowingCommand } from '../../vision/calibration/checkedDice.js';
import { readProfileFile } from '../../vision-io/profileFile.js';
import { loadDice } from '../loadDice.js';
import { noSessionReader } from '../sessionReader.js';
import type { CliIo } from '../io.js';
import { positiveIntArg, positiveNumberArg, probabilityArg, toJson } from '../options.js';
import { renderTable } from '../../core/textTable.js';

interface PlanFlags {
  die: string;
  diceFile?: string;
  detect: string[];
  level: 'symbol' | 'face';
  alpha: number;
  power: number;
  delta: number;
  channels: number;
  secondsPerThrow: number;
  dice?: number;
  calibration?: string;
  json?: boolean;
}

export function registerPlanCommand(program: Command, io: CliIo): void {
  program
    .command('plan')
    .description('Before a run: how many rolls (and machine hours) it takes to detect a stated bias, or to certify a die FAIR_WITHIN(delta).')
    .requiredOption('--die <type>', 'die type (red, green, d6, d3, direction, or one from --dice-file)')
    .option('--dice-file <file>', 'JSON/YAML file with user-defined dice')
    .option(
      '--detect <bias>',
      'a bias to detect, repeatable: hit=0.5 (absolute), hit+crit=0.55 (a group), hit=x1.05 or hit=+5% (relative to the expected odds)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .addOption(new Option('--level <level>', 'test symbols or physical faces (face ids in --detect)').choices(['symbol', 'face']).default('symbol'))
    .option('--alpha <p>', 'error rate of the test', probabilityArg, 0.05)
    .option('--power <p>', 'chance of detecting the bias when it is there', probabilityArg, 0.8)
    .option('--delta <d>', 'FAIR_WITHIN margin to plan certification for', probabilityArg, 0.03)
    .option('--channels <n>', 'dice the rig rolls per throw', positiveIntArg, 4)
    .option('--seconds-per-throw <s>', 'seconds per throw (tumble, settle, read)', positiveNumberArg, 2.5)
    .option('--dice <n>', 'dice to test in all (default: one per channel)', positiveIntArg)
    .option('--calibration <file>', "plan certification allowing for misreads up to the bounds of an X-Wing calibration profile, or of a D6 check for D6-faced dice (with --level face), as a session reading with it would")
    .option('--json', 'print the plan as JSON')
    .action(async (flags: PlanFlags) => {
      const die = getDieType(flags.die, loadDice(flags.diceFile));
      const rig: RigThroughput = { channels: flags.channels, secondsPerThrow: flags.secondsPerThrow, dice: flags.dice ?? flags.channels };
      const plans = flags.detect.map((d) => planDetection(die, parseDetectSpec(d, die, flags.level), flags.alpha, flags.power, flags.delta, rig));
      const misreads = flags.calibration !== undefined ? await profileMisreads(flags.calibration, die, flags.level) : undefined;
      const certify = planCertification(die, flags.level, flags.delta, flags.alpha, rig, misreads?.faces?.map((f) => f.bound));
      // A die no session reader reads cannot be rolled by run: only a roll file's figures are a plan for it.
      const noSession = noSessionReader(die);
      if (flags.json) {
        const detect = noSession === undefined ? plans : plans.map(({ session: _, ...p }) => p);
        const certified = noSession === undefined ? certify : (({ session: _, ...c }) => c)(certify);
        io.out(`${toJson({ die: die.id, alpha: flags.alpha, power: flags.power, rig, ...(noSession !== undefined ? { noSession } : {}), detect, certify: certified, ...(misreads ? { misreads } : {}) })}\n`);
        return;
      }
      const hours = (h: number | null) => (h === null ? '-' : formatDuration(h * 3_600_000));
      const rolls = (n: number | null) => (n === null ? `more than ${formatCount(1e8)}` : formatCount(n));
      // A count with its noun: "1 roll", "4,134 rolls".
      const rollsOf = (n: number | null) => `${rolls(n)} ${n === 1 ? 'roll' : 'rolls'}`;
      const share = (q: number) => (q === 0.9 ? '9 in 10' : `${formatProbability(q * 100)} %`);
      const perDie = rig.dice === 1 ? 'its one die at alpha' : `each of its ${rig.dice} dice at alpha/${rig.dice}`;
      const out =
        noSession === undefined
          ? [`${die.name}: alpha ${flags.alpha}, power ${flags.power}; rig: ${rig.channels} ${rig.channels === 1 ? 'die' : 'dice'} per throw, ${rig.secondsPerThrow} s per throw, ${rig.dice} ${rig.dice === 1 ? 'die' : 'dice'} to test.`, '']
          : [
              `${die.name}: alpha ${flags.alpha}, power ${flags.power}; ${rig.dice} ${rig.dice === 1 ? 'die' : 'dice'} to test.`,
              `No session can roll ${die.id} dice yet (${noSession}): the figures are for analyze on a roll file of dice rolled and read another way.`,
              '',
            ];
      if (plans.length > 0) {
        const first = plans[0] as (typeof plans)[number];
        const session = (p: (typeof plans)[number]) =>
          p.session.likely !== null ? rolls(p.session.likely) : p.session.certifiedFirst > 0 ? `none: FAIR_WITHIN first in ${Math.round(p.session.certifiedFirst * 100)} %` : rolls(null);
        out.push(
          noSession === undefined
            ? renderTable(
                ['to detect', 'expected', 'session: UNFAIR', 'machine time', `analyze (all ${flags.level}s)`, 'machine time', 'analyze (targeted 1-df)', 'machine time'],
                plans.map((p) => [
                  `${p.spec.names.join('+')} at ${targetText(p.spec)}`,
                  expectedText(p.spec),
                  session(p),
                  hours(p.session.likelyHours),
                  rolls(p.omnibusRolls),
                  hours(p.omnibusHours),
                  rolls(p.targetedRolls),
                  hours(p.targetedHours),
                ]),
                1,
                '  ',
              ).trimEnd()
            : renderTable(
                ['to detect', 'expected', `analyze (all ${flags.level}s)`, 'analyze (targeted 1-df)'],
                plans.map((p) => [`${p.spec.names.join('+')} at ${targetText(p.spec)}`, expectedText(p.spec), rolls(p.omnibusRolls), rolls(p.targetedRolls)]),
                1,
                '  ',
              ).trimEnd(),
          '',
          noSession === undefined
            ? `Rolls per die. Session: the monitor (${perDie}, UNFAIR at e-value ${formatCount(rig.dice / flags.alpha)}${countedBy(first.session.level, flags.level, die)}) calls ${share(flags.power)} of ${DEFAULT_PLAN_SIMULATION.runs} simulated dice with that bias UNFAIR by then; ` +
                `a die certified FAIR_WITHIN(±${flags.delta}) first stays so (a bias inside the margin).`
            : 'Rolls per die.',
          `analyze: a file of that many rolls is found unfair with power ${flags.power} by its ${flags.level} test at alpha/${first.tests} (Holm over ${testFamily(first, rig.dice)}). ` +
            'The targeted test is only valid if you choose the group before rolling; `analyze` runs the test over all ' + flags.level + 's.',
          ...symbolsOnlyLine(plans, rollsOf),
          '',
        );
      }
      const limit = certify.misreadLimit !== undefined ? `a fair die gets no closer than ±${formatProbability(certify.misreadLimit)}` : '';
      const s = certify.session;
      const title = `To certify FAIR_WITHIN(±${flags.delta}) by ${flags.level}`;
      if (certify.outOfReach && misreads !== undefined) {
        out.push(
          `Misreads ${misreads.statement.replace(/^misreads /, '')}.`,
          `${title}: out of reach with these misread bounds, however long the die rolls (${limit}); ` +
            `${isD6Faced(die) ? `check more of your dice and make the check again (${D6_CHECK_COMMAND})` : `check the profile on new rolls (${narrowingCommand(flags.calibration)})`} to narrow them.`,
        );
      } else if (certify.notSimulated) {
        out.push(
          `${title}: at least ${rollsOf(certify.exactShares)} per die (${hours(certify.exactShares === null ? null : machineHours(certify.exactShares, rig))}), ` +
            `even for a die whose faces come up exactly at their odds; a session needs more. Past what plan simulates.`,
        );
      } else {
        const exact = certify.exactShares === null ? '' : ` (a file whose faces come up exactly at their odds: ${rolls(certify.exactShares)})`;
        out.push(
          ...(misreads ? [`Misreads ${misreads.statement.replace(/^misreads /, '')}.`] : []),
          `${title}, if the die is fair${misreads ? ` and read as it falls, allowing for those misreads (${limit})` : ''}:`,
          ...(noSession !== undefined
            ? []
            : [
                `  a session (${perDie}${countedBy(certify.sessionLevel, flags.level, die)}${certify.sessionLevel === 'face' && countedBy(certify.sessionLevel, flags.level, die) !== '' ? `, so it certifies every face within ±${flags.delta}` : ''}): half of fair dice by ${rollsOf(s.median)} (${hours(s.medianHours)}), ${share(s.share)} by ${rolls(s.likely)} (${hours(s.likelyHours)}): budget the run for the latter.`,
              ]),
          ...(certify.fixedSample
            ? [
                `  analyze, on a roll file whose size is fixed in advance: a fair die's file of ${rollsOf(certify.fixedSample.median)} certifies half the time, ` +
                  `of ${rolls(certify.fixedSample.likely)} ${share(certify.fixedSample.share)} times${exact}.`,
              ]
            : []),
          `  (The product's own rules run on ${DEFAULT_PLAN_SIMULATION.runs} simulated fair dice, seeded; a die off its odds takes longer.)`,
        );
      }
      if (noSession === undefined) out.push(`At this rig's pace: ${formatCount(Math.round(3600 / rig.secondsPerThrow) * rig.channels)} die-rolls per hour (${hours(machineHours(1000, rig))} per 1,000 rolls of every die).`);
      out.push('');
      io.out(out.join('\n'));
    });
}

/** Where a session counts at another level than the plan's: ", counting its 6 faces, as a session reads a d3". */
function countedBy(sessionLevel: 'symbol' | 'face', planned: 'symbol' | 'face', die: DieType): string {
  // A D6's faces are its symbols: no other count to name.
  if (sessionLevel === planned || die.faces.length === die.symbols.length) return '';
  return sessionLevel === 'face' ? `, counting its ${die.faces.length} faces, as a session's pip reader reads ${die.id} dice` : `, counting its ${die.symbols.length} symbols, as a session's icon reader reads ${die.id} dice`;
}

/** The asked-for probability, to as many figures as it takes to differ from the expected one (x1.0001 on 0.375: 0.37504). */
function targetText(spec: DetectPlan['spec']): string {
  return String(Number(spec.target.toPrecision(distinctFigures(spec.target, spec.expected))));
}

/** The expected probability, to the figures its target is shown to. */
function expectedText(spec: DetectPlan['spec']): string {
  return String(Number(spec.expected.toPrecision(distinctFigures(spec.target, spec.expected))));
}

/** analyze's test family, as plan counts it: "2 tests: its one die by symbol and by face, as analyze tests a log that records faces". */
function testFamily(p: FixedSampleDetection, dice: number): string {
  const levels = p.levels.length === 2 ? 'by symbol and by face, as analyze tests a log that records faces' : `by ${p.levels[0] ?? 'symbol'}`;
  return `${formatCountOf(p.tests, 'test')}: ${dice === 1 ? 'its one die' : `each of ${formatCount(dice)} dice`} ${levels}`;
}

/** Where a log of symbols alone is tested at fewer levels: its figures, so a plan for such a log is not overstated. */
function symbolsOnlyLine(plans: readonly DetectPlan[], rollsOf: (n: number | null) => string): string[] {
  const alone = plans.flatMap((p) => (p.symbolsOnly ? [{ p, s: p.symbolsOnly }] : []));
  const first = alone[0];
  if (first === undefined) return [];
  const each = alone.map(({ p, s }) => `${p.spec.names.join('+')} at ${targetText(p.spec)} in ${rollsOf(s.omnibusRolls)} (targeted ${rollsOf(s.targetedRolls)})`);
  return [`A log that records symbols alone (as an X-Wing session's export does) is tested by symbol only, at alpha/${first.s.tests} (${formatCountOf(first.s.tests, 'test')}): ${each.join('; ')}.`];
}

/** The misreads a session reading dice of `die` with this profile, or this D6 check, allows for (refused as a session refuses). */
async function profileMisreads(file: string, die: DieType, level: 'symbol' | 'face'): Promise<MisreadAssumption> {
  if (isD6Faced(die)) {
    if (level !== 'face') throw new InputError(`a D6 session counts the faces of a ${die.id} die: plan with --level face.`);
    return d6CheckMisreadAssumption(await readD6CheckFile(file), die.faces.map((f) => f.id));
  }
  if (level !== 'symbol') throw new InputError('--calibration plans for X-Wing dice, read by symbol; drop --level face.');
  const profile = await readProfileFile(file);
  if (!profile.dice.includes(die.id)) throw new InputError(`the profile reads ${profile.dice.join(', ')} dice, not ${die.id}.`, { file });
  return profileMisreadAssumption(profile, die.id, die.symbols);
}
