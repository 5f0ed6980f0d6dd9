import type { Command } from 'commander';
import type { CliIo } from '../main.js';
import { registerAnalyzeCommand } from './analyze.js';
import { registerDiceCommand } from './dice.js';
import { registerOddsCommand } from './odds.js';
import { registerPlanCommand } from './plan.js';
import { registerPoolCommand } from './pool.js';

/** Every command registers itself here; one file per command beside this one. */
export function registerCommands(program: Command, io: CliIo): void {
  registerAnalyzeCommand(program, io);
  registerPlanCommand(program, io);
  registerPoolCommand(program, io);
  registerOddsCommand(program, io);
  registerDiceCommand(program, io);
}
