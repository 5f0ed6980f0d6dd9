import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { registerAnalyzeCommand } from './analyze.js';
import { registerDiceCommand } from './dice.js';
import { registerOddsCommand } from './odds.js';
import { registerPlanCommand } from './plan.js';
import { registerPoolCommand } from './pool.js';
import { registerReportCommand } from './report.js';
import { registerCalibrateCommand } from './calibrate.js';
import { registerVisionCommand } from './vision.js';
import { registerRigCommand } from './rig.js';
import { registerStoreCommands } from './store.js';
import { registerRunCommand } from './run.js';
import { registerDemoCommand } from './demo.js';
import { registerServeCommand } from './serve.js';
import { registerReviewCommand } from './review.js';
import { registerSyncCommand } from './sync.js';
import { registerSessionsCommand } from './sessions.js';
import { registerCampaignCommand } from './campaign.js';

/** Every command registers itself here; one file per command beside this one. */
export function registerCommands(program: Command, io: CliIo): void {
  registerAnalyzeCommand(program, io);
  registerPlanCommand(program, io);
  registerPoolCommand(program, io);
  registerReportCommand(program, io);
  registerOddsCommand(program, io);
  registerDiceCommand(program, io);
  registerCalibrateCommand(program, io);
  registerVisionCommand(program, io);
  registerRigCommand(program, io);
  registerStoreCommands(program, io);
  registerRunCommand(program, io);
  registerDemoCommand(program, io);
  registerServeCommand(program, io);
  registerReviewCommand(program, io);
  registerSyncCommand(program, io);
  registerSessionsCommand(program, io);
  registerCampaignCommand(program, io);
}
