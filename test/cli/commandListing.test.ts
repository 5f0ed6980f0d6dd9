import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { buildProgram } from '../../src/cli/main.js';

const silent = { out: () => undefined, err: () => undefined, setExitCode: () => undefined };

/** The program as it was before the listing: the root command with every command file loaded, in the table's order. */
async function everyFileLoaded(): Promise<Command> {
  // `--version` alone registers no command: the root command, as buildProgram sets it up.
  const program = await buildProgram(silent, ['node', 'dicerig', '--version']);
  for (const entry of COMMANDS) (await entry.load())(program, silent);
  return program;
}

describe('the help listing of the commands', () => {
  it('gives, for each command file, the name, arguments and summary that file registers', async () => {
    for (const entry of COMMANDS) {
      const program = new Command('dicerig');
      (await entry.load())(program, silent);
      const help = program.createHelp();
      expect(entry.listing, entry.names.join(' ')).toEqual(program.commands.map((c) => [help.subcommandTerm(c), help.subcommandDescription(c)]));
    }
  });

  it('makes the same help, at any width, as the program with every command file loaded', async () => {
    const full = await everyFileLoaded();
    const listed = await buildProgram(silent, ['node', 'dicerig', '--help']);
    expect(listed.commands.length).toBe(full.commands.length);
    for (const width of [60, 80, 200]) {
      // configureHelp replaces the settings it is given: keep the listing's own (its command lines).
      for (const p of [full, listed]) p.configureHelp({ ...p.configureHelp(), helpWidth: width });
      expect(listed.helpInformation(), `width ${width}`).toBe(full.helpInformation());
    }
  });

  it('loads the file of the command `help NAME` asks about, for that command’s own help', async () => {
    const program = await buildProgram(silent, ['node', 'dicerig', 'help', 'export']);
    expect(program.commands.map((c) => c.name())).toEqual(['verify', 'export', 'import']);
    expect(program.commands[1]?.helpInformation()).toMatch(/--format/);
  });
});
