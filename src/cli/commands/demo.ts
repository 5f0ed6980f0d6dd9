import { Option, type Command } from 'commander';
import { demoConfig, DEMO_BUDGET, DEMO_EMULATED_BUDGET, DEMO_LOAD_FACTOR, loadedDie, type DemoDice } from '../../session/demo.js';
import type { SessionResult } from '../../session/runner.js';
import { parseDeclines } from '../../session/decliningReader.js';
import { parseMisreads } from '../../session/misreadingReader.js';
import { InputError } from '../../core/errors.js';
import { getDieType } from '../../dice/catalogue.js';
import { formatCount } from '../../core/format.js';
import type { CliIo } from '../io.js';
import { nonNegativeIntArg, positiveIntArg } from '../options.js';
import { runWithProgress, TAKE_OVER_HELP, TAKE_OVER_NEEDS_RESUME, type SessionOutputFlags } from './run.js';
import { FLEET_HELP } from '../fleetSync.js';
import { rollStorePath, SESSION_DB_HELP } from '../dbOption.js';

interface DemoFlags extends SessionOutputFlags {
  seed: number;
  emulated?: boolean;
  db?: string;
  budget?: number;
  dice: DemoDice;
  frames?: 'rest' | 'all';
  resume?: string;
  moreRolls?: number;
  takeOver?: boolean;
  declines?: string;
  misreads?: string;
  misreadCalibration?: number;
}

/** The closing words of a demo: which die was loaded and whether it was caught. */
export function revealLoadedDie(result: SessionResult, loaded: { label: string; symbol: string; factor: number } | undefined): string {
  if (!loaded) return '';
  const die = result.dice.find((d) => d.label === loaded.label);
  const caught = die?.verdict.kind === 'UNFAIR';
  const others = result.dice.filter((d) => d.label !== loaded.label);
  const falseAlarms = others.filter((d) => d.verdict.kind === 'UNFAIR');
  const lines = [
    `The loaded die was ${loaded.label} (${loaded.symbol} ${loaded.factor}x as likely as it should be): ${
      caught
        ? `flagged UNFAIR after ${formatCount(die?.decidedAt ?? die?.rolls ?? 0)} rolls`
        : die?.decidedAt === null
          ? `not flagged yet (undecided after ${formatCount(die.rolls)} rolls when the session ended)`
          : `not flagged (${die?.verdict.kind ?? 'not rolled'})`
    }.`,
    falseAlarms.length === 0
      ? `No fair die was flagged (${others.map((d) => `${d.label} ${d.verdict.kind}`).join(', ')}).`
      : `A fair die was flagged: ${falseAlarms.map((d) => d.label).join(', ')} (a false alarm; each has at most a 0.1 % chance).`,
  ];
  return `${lines.join('\n')}\n`;
}

/** What the demo's reader reads: D6 faces, or the X-Wing dice's symbols. */
function demoFaces(dice: DemoDice): string[] {
  const types = dice === 'd6' ? [getDieType('d6')] : [getDieType('red'), getDieType('green')];
  return [...new Set(types.flatMap((t) => (dice === 'd6' ? t.faces.map((f) => f.id) : t.symbols)))];
}

/** Registers `dicerig demo`. */
export function registerDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .summary('a complete session with no hardware: four dice, one loaded, until each has a verdict')
    .description(
      'Runs a whole session with no hardware. By default the simulated rig on a simulated clock (thousands of throws take minutes, ' +
        'with the durations a real rig would have), with --emulated the real firmware on the emulated board in real time (about 2-4 s a throw). ' +
        `The simulated camera renders the dice and the real vision pipeline reads them. Four dice, one of them loaded (one result ${DEMO_LOAD_FACTOR}x as likely ` +
        'as it should be: a six on a D6, a hit or an evade on an X-Wing die); rolling stops when every die has a verdict or the per-die budget is spent. ' +
        'Ends with the verdicts, which die was loaded, the session id, and the command that writes its report.',
    )
    .option('--seed <n>', 'seed of every simulated part (which die is loaded, the throws, the dice looks)', nonNegativeIntArg, 1)
    .option('--emulated', 'roll with the real firmware on the emulated board, in real time')
    .option('--db <path>', SESSION_DB_HELP)
    .option('--budget <rolls>', `per-die roll budget (default ${DEMO_BUDGET}; ${DEMO_EMULATED_BUDGET} with --emulated)`, positiveIntArg)
    .addOption(new Option('--dice <dice>', 'which dice').choices(['d6', 'xwing']).default('d6'))
    .addOption(new Option('--frames <frames>', 'camera frames: rest (one render per throw) or all (every frame; slower)').choices(['rest', 'all']))
    .option('--declines <face=p,...>', 'face-dependent declines of the simulated reader, e.g. 6=0.3,1=0.05 (declined dice are re-read, then kept unresolved)')
    .option('--misreads <spec>', 'misreads of the simulated reader, e.g. 6>5=0.02 (a 6 read as a 5 2 % of the time); a simulated calibration measures them and the verdicts allow for its upper bounds')
    .option('--misread-calibration <reads>', 'held-back reads per face of that simulated calibration (default 2000; 0: none, misreads assumed 0)', nonNegativeIntArg)
    .option('--resume <session>', 'continue a demo session (same --seed and --dice) after a crash')
    .option('--more-rolls <n>', 'with --resume: raise the session\'s roll budget by n rolls a die, rolling its undecided dice on, on the same evidence', positiveIntArg)
    .option('--take-over', TAKE_OVER_HELP)
    .option('--json', 'print the end as JSON (no progress)')
    .option('--events', 'print every event as one JSON line, then the summary')
    .option('--plain', 'plain progress lines even on a terminal')
    .option('--fleet <url>', FLEET_HELP)
    .action(async (flags: DemoFlags) => {
      if (flags.moreRolls !== undefined && flags.resume === undefined) throw new InputError('--more-rolls raises the roll budget of a stored session: give the session with --resume SESSION');
      if (flags.takeOver === true && flags.resume === undefined) throw new InputError(TAKE_OVER_NEEDS_RESUME);
      const emulated = flags.emulated === true;
      const declines = flags.declines === undefined ? undefined : parseDeclines(flags.declines, demoFaces(flags.dice));
      const misreads = flags.misreads === undefined ? undefined : parseMisreads(flags.misreads, demoFaces(flags.dice));
      if (flags.misreadCalibration !== undefined && misreads === undefined) throw new InputError('--misread-calibration measures the misreads of --misreads; give --misreads too.');
      const config = demoConfig({
        ...(declines ? { declines } : {}),
        ...(misreads ? { misreads, ...(flags.misreadCalibration !== undefined ? { misreadCalibration: flags.misreadCalibration } : {}) } : {}),
        seed: flags.seed,
        dice: flags.dice,
        emulated,
        budget: flags.budget ?? (emulated ? DEMO_EMULATED_BUDGET : DEMO_BUDGET),
        ...(flags.frames !== undefined ? { frames: flags.frames } : {}),
      });
      const db = rollStorePath(flags.db);
      const quoted = /\s/.test(db) ? JSON.stringify(db) : db;
      await runWithProgress(
        io,
        config,
        db,
        flags,
        (result) => revealLoadedDie(result, loadedDie(config)),
        (id) => `dicerig demo --seed ${flags.seed} --dice ${flags.dice}${emulated ? ' --emulated' : ''}${flags.budget !== undefined ? ` --budget ${flags.budget}` : ''}${flags.declines !== undefined ? ` --declines ${flags.declines}` : ''}${flags.misreads !== undefined ? ` --misreads ${flags.misreads}` : ''}${flags.misreadCalibration !== undefined ? ` --misread-calibration ${flags.misreadCalibration}` : ''} --resume ${id} --db ${quoted}`,
      );
    });
}
