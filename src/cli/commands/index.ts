import type { Command } from 'commander';
import type { CliIo } from '../io.js';

type Register = (program: Command, io: CliIo) => void;

/** A command as `dicerig --help` lists it: its name with its arguments (`analyze [options] <files...>`), and its summary. */
type Listed = readonly [term: string, summary: string];

/**
 * Every command, by the names it adds to the program, how to load the file that registers it (one file per command
 * beside this one), and the lines `dicerig --help` lists for it, in the order the help lists them. A command's file
 * imports all it runs with (statistics, store, server, rig, vision libraries): importing every one of them cost about
 * a second before any command started, so a run loads only the file of the command it names, and the list of
 * commands (`--help`, no command, a misspelt one) loads none. The listing repeats each file's name, arguments and
 * summary; test/cli/commandTable.test.ts checks that they agree.
 */
export const COMMANDS: readonly { readonly names: readonly string[]; readonly load: () => Promise<Register>; readonly listing: readonly Listed[] }[] = [
  {
    names: ['analyze'],
    load: async () => (await import('./analyze.js')).registerAnalyzeCommand,
    listing: [['analyze [options] <files...>', 'Read roll logs and give a verdict per die: UNFAIR, FAIR_WITHIN(delta), INCONCLUSIVE (with the rolls still needed) or RIG_SUSPECT.']],
  },
  {
    names: ['plan'],
    load: async () => (await import('./plan.js')).registerPlanCommand,
    listing: [['plan [options]', 'Before a run: how many rolls (and machine hours) it takes to detect a stated bias, or to certify a die FAIR_WITHIN(delta).']],
  },
  {
    names: ['pool'],
    load: async () => (await import('./pool.js')).registerPoolCommand,
    listing: [['pool [options] <sources...>', 'Pick the N fairest, best-balanced dice of one type for a shared tournament pool, with the pool’s certified delta.']],
  },
  {
    names: ['report'],
    load: async () => (await import('./report.js')).registerReportCommand,
    listing: [['report [options] <session>', 'write a self-contained HTML report (and PNG charts) of a stored session']],
  },
  {
    names: ['odds'],
    load: async () => (await import('./odds.js')).registerOddsCommand,
    listing: [['odds [options]', 'exact game odds: X-Wing attack and defense, T9A D6 rolls, X-Wing Rugby passes']],
  },
  {
    names: ['dice'],
    load: async () => (await import('./dice.js')).registerDiceCommand,
    listing: [['dice [options] [id]', 'list the known dice: faces, symbols, expected odds, opposite faces']],
  },
  {
    names: ['calibrate'],
    load: async () => (await import('./calibrate.js')).registerCalibrateCommand,
    listing: [['calibrate [options]', 'teach the reader your X-Wing dice, measure it on your D6s (and learn their faces), or check that a calibration still holds']],
  },
  {
    names: ['vision'],
    load: async () => (await import('./vision.js')).registerVisionCommand,
    listing: [['vision', 'Check the die reader: evaluate it on labelled photos, or make labelled photos with the simulated camera.']],
  },
  {
    names: ['rig'],
    load: async () => (await import('./rig.js')).registerRigCommand,
    listing: [['rig', 'find and check the dice rig (serial ports, connection, one tumble)']],
  },
  {
    names: ['verify', 'export', 'import'],
    load: async () => (await import('./store.js')).registerStoreCommands,
    listing: [
      ['verify [options] [db]', 'check the hash chain of every session in the roll store, or an export file against its seal'],
      ['export [options] <session>', 'write a session’s counted rolls as CSV or JSON Lines, with a manifest'],
      ['import [options] <files...>', 'store roll logs (the formats `analyze` reads) as a new session'],
    ],
  },
  {
    names: ['salvage'],
    load: async () => (await import('./salvage.js')).registerSalvageCommand,
    listing: [['salvage [options] <db>', 'copy every row still readable of a damaged roll store into a new store']],
  },
  {
    names: ['run'],
    load: async () => (await import('./run.js')).registerRunCommand,
    listing: [['run [options] [config]', 'roll a session: tumble, read, store and judge until every die has a verdict']],
  },
  {
    names: ['demo'],
    load: async () => (await import('./demo.js')).registerDemoCommand,
    listing: [['demo [options]', 'a complete session with no hardware: four dice, one loaded, until each has a verdict']],
  },
  {
    names: ['serve'],
    load: async () => (await import('./serve.js')).registerServeCommand,
    listing: [['serve [options]', 'live dashboard, OBS overlay and a roll API for chat and bots']],
  },
  {
    names: ['review'],
    load: async () => (await import('./review.js')).registerReviewCommand,
    listing: [['review [options] <session>', 'label the dice the reader declined or did not find, on a local web page']],
  },
  {
    names: ['sync'],
    load: async () => (await import('./sync.js')).registerSyncCommand,
    listing: [['sync [options]', 'copy the local roll store into the fleet store (PostgreSQL)']],
  },
  {
    names: ['sessions'],
    load: async () => (await import('./sessions.js')).registerSessionsCommand,
    listing: [['sessions [options]', 'list the sessions of the roll store or the fleet store']],
  },
  {
    names: ['campaign'],
    load: async () => (await import('./campaign.js')).registerCampaignCommand,
    listing: [['campaign', 'test a box of dice on a fleet of rigs: plan, progress, one report']],
  },
];

/**
 * Registers the command `argv` names (`dicerig help NAME` names NAME too). A run that names none (no arguments,
 * `--help`, a misspelt name) gets each command as the help lists it: its name and summary only, which is all the
 * help and the "did you mean" read. `--version` alone needs none.
 */
export async function registerCommands(program: Command, io: CliIo, argv: readonly string[] = []): Promise<void> {
  const first = argv[2];
  if (argv.length === 3 && (first === '--version' || first === '-V')) return;
  const asked = first === 'help' ? argv[3] : first;
  const named = COMMANDS.find((c) => asked !== undefined && c.names.includes(asked));
  if (named !== undefined) {
    (await named.load())(program, io);
    return;
  }
  listCommands(program);
}

/** Adds every command as a listing only: the help shows each one's line as its file would make it. */
export function listCommands(program: Command): void {
  const terms = new Map<Command, string>();
  for (const [term, summary] of COMMANDS.flatMap((c) => c.listing)) {
    const name = term.split(' ')[0] as string;
    const listed = program.command(name).summary(summary);
    // Never reached: a run that names a command registers that command's file instead of this line.
    listed.action(() => {
      throw new Error(`dicerig: internal error: the help listing of ${name} was run as the command`);
    });
    terms.set(listed, term);
  }
  const help = program.createHelp();
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd) ?? help.subcommandTerm(cmd) });
}
