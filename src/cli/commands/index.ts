import type { Command } from 'commander';
import type { CliIo } from '../main.js';
import { registerAnalyzeCommand } from './analyze.js';

/** Every command registers itself here; one file per command beside this one. */
export function registerCommands(program: Command, io: CliIo): void {
  registerAnalyzeCommand(program, io);
}
