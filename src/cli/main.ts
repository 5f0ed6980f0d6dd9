import { Command, CommanderError } from 'commander';
import { DicerigError } from '../core/errors.js';
import { registerCommands } from './commands/index.js';
import { processIo, type CliIo } from './io.js';
import { VERSION } from '../core/version.js';
import { printable } from '../rolllog/quoteValue.js';
import { isSqliteError } from '../store/sqlite.js';
import { fileSystemProblem } from './fileSystemError.js';
import { refuseEmptyValues } from './emptyValues.js';

/**
 * Builds the `dicerig` program with the commands `argv` needs (all of them when it names none; see registerCommands).
 * Output streams are injected so tests can read them.
 */
export async function buildProgram(io: CliIo = processIo(), argv: readonly string[] = []): Promise<Command> {
  const program = new Command('dicerig')
    .description('Roll physical dice by machine, read them, and tell whether they are fair.')
    .version(VERSION)
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride();
  await registerCommands(program, io, argv);
  program.hook('preAction', (_program, action) => refuseEmptyValues(action));
  for (const cmd of program.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  return program;
}

/** Runs the CLI and returns the exit status; never throws for user errors. */
export async function main(argv: string[], io: CliIo & { exitCode: number } = processIo()): Promise<number> {
  try {
    const program = await buildProgram(io, argv);
    await program.parseAsync(argv);
    return io.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof DicerigError) {
      io.err(`dicerig: ${printable(e.message)}\n`);
      return 1;
    }
    if (isSqliteError(e)) {
      // A store error no command anticipated (a page damaged mid-run): one line, not a stack trace.
      io.err(`dicerig: the roll store failed: ${printable(e.message)} (${e.code}). Check it with \`dicerig verify\`.\n`);
      return 1;
    }
    const fsProblem = fileSystemProblem(e);
    if (fsProblem !== undefined) {
      io.err(`dicerig: ${printable(fsProblem)}\n`);
      return 1;
    }
    io.err(`dicerig: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 70;
  }
}
