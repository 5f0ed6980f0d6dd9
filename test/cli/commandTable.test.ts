import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { buildProgram } from '../../src/cli/main.js';
import { runCli } from './runCli.js';

const silent = { out: () => undefined, err: () => undefined, setExitCode: () => undefined };

describe('the command table', () => {
  it('names, for each command file, exactly the commands that file registers, each name once', async () => {
    const seen: string[] = [];
    for (const entry of COMMANDS) {
      const program = new Command('dicerig');
      (await entry.load())(program, silent);
      expect(program.commands.map((c) => c.name())).toEqual(entry.names);
      seen.push(...entry.names);
    }
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('builds the program with only the command a run names, and with every command when it names none', async () => {
    expect((await buildProgram(silent, ['node', 'dicerig', 'odds', 'attack', '--red', '2'])).commands.map((c) => c.name())).toEqual(['odds']);
    expect((await buildProgram(silent, ['node', 'dicerig', 'export', 'x.db'])).commands.map((c) => c.name())).toEqual(['verify', 'export', 'import']);
    const all = COMMANDS.flatMap((c) => c.names);
    for (const argv of [[], ['--help'], ['odz'], ['--json', 'odds']]) {
      expect((await buildProgram(silent, ['node', 'dicerig', ...argv])).commands.map((c) => c.name()), argv.join(' ')).toEqual(all);
    }
  });

  it('lists every command in the help, answers --version, and still suggests the command a misspelt name meant', async () => {
    const help = await runCli('--help');
    expect(help.code).toBe(0);
    for (const name of COMMANDS.flatMap((c) => c.names)) expect(help.out).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    const version = await runCli('--version');
    expect(version.out).toMatch(/^\d+\.\d+\.\d+\n$/);
    const typo = await runCli('odz');
    expect(typo.code).not.toBe(0);
    expect(typo.err).toMatch(/unknown command 'odz'[\s\S]*odds/);
  });
});
