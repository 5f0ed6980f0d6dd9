import type { Command } from 'commander';
import type { CliIo } from '../main.js';

/** Every command registers itself here; one file per command beside this one. */
export function registerCommands(_program: Command, _io: CliIo): void {}
