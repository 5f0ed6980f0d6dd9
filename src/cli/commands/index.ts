import type { Command } from 'commander';
import type { CliIo } from '../io.js';

type Register = (program: Command, io: CliIo) => void;

/**
 * Every command, by the names it adds to the program, and how to load the file that registers it (one file per
 * command beside this one), in the order `dicerig --help` lists them. A command's file imports all it runs with
 * (statistics, store, server, rig, vision libraries): importing every one of them cost about a second before any
 * command started, so a run loads only the file of the command it names.
 */
export const COMMANDS: readonly { readonly names: readonly string[]; readonly load: () => Promise<Register> }[] = [
  { names: ['analyze'], load: async () => (await import('./analyze.js')).registerAnalyzeCommand },
  { names: ['plan'], load: async () => (await import('./plan.js')).registerPlanCommand },
  { names: ['pool'], load: async () => (await import('./pool.js')).registerPoolCommand },
  { names: ['report'], load: async () => (await import('./report.js')).registerReportCommand },
  { names: ['odds'], load: async () => (await import('./odds.js')).registerOddsCommand },
  { names: ['dice'], load: async () => (await import('./dice.js')).registerDiceCommand },
  { names: ['calibrate'], load: async () => (await import('./calibrate.js')).registerCalibrateCommand },
  { names: ['vision'], load: async () => (await import('./vision.js')).registerVisionCommand },
  { names: ['rig'], load: async () => (await import('./rig.js')).registerRigCommand },
  { names: ['verify', 'export', 'import'], load: async () => (await import('./store.js')).registerStoreCommands },
  { names: ['run'], load: async () => (await import('./run.js')).registerRunCommand },
  { names: ['demo'], load: async () => (await import('./demo.js')).registerDemoCommand },
  { names: ['serve'], load: async () => (await import('./serve.js')).registerServeCommand },
  { names: ['review'], load: async () => (await import('./review.js')).registerReviewCommand },
  { names: ['sync'], load: async () => (await import('./sync.js')).registerSyncCommand },
  { names: ['sessions'], load: async () => (await import('./sessions.js')).registerSessionsCommand },
  { names: ['campaign'], load: async () => (await import('./campaign.js')).registerCampaignCommand },
];

/**
 * Registers the command `argv` names, or every command when it names none of them (no arguments, `--help`, a
 * misspelt name: the help and the "did you mean" need them all). `--version` alone needs none.
 */
export async function registerCommands(program: Command, io: CliIo, argv: readonly string[] = []): Promise<void> {
  const first = argv[2];
  if (argv.length === 3 && (first === '--version' || first === '-V')) return;
  const named = COMMANDS.find((c) => first !== undefined && c.names.includes(first));
  for (const command of named === undefined ? COMMANDS : [named]) (await command.load())(program, io);
}
