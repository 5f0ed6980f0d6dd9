import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { parseBox } from '../../analysis/campaign/box.js';
import { checkCampaignName } from '../../analysis/campaign/campaignName.js';
import { campaignSettings, planCampaign, previewRounds } from '../../analysis/campaign/campaignPlan.js';
import { InputError } from '../../core/errors.js';
import { formatCountOf, shellWord } from '../../core/format.js';
import { createCampaign } from '../../fleet/campaignStore.js';
import { readCampaignFindings, readCampaignStatus } from '../../report/fleetCampaign.js';
import { commandUrl, isFleetUrl, openFleet, PASSWORD_HINT, type FleetDb } from '../../fleet/connect.js';
import { loadSessionConfig } from '../../session/config.js';
import { DB_HELP, rollStorePath } from '../dbOption.js';
import type { CliIo } from '../io.js';
import { loadDice } from '../loadDice.js';
import { noSessionReader } from '../sessionReader.js';
import { getDieType } from '../../dice/catalogue.js';
import { ownDieTypes } from '../../dice/sessionDice.js';
import { sameDieType } from '../../dice/dieTypeData.js';
import { campaignDieTypes } from '../../fleet/campaignStore.js';
import { nonNegativeIntArg, positiveIntArg, probabilityArg, toJson } from '../options.js';
import { runCampaignRig, sayRigLoopEnd } from '../campaign/rigLoop.js';
import { CAMPAIGN_TAKE_OVER_HELP, runWithProgress } from './run.js';
import { formatCampaignReport, formatCampaignStatus, rerunCommand } from '../campaign/campaignText.js';
import { fileReadProblem } from '../../core/fileReadProblem.js';
import { notUtf8, utf8Text } from '../../core/utf8Text.js';

const FLEET_HELP = 'the fleet store: postgres://USER@HOST/DB, or postgres:///DB?host=/socket/folder';
const MAX_BOX_BYTES = 4 * 1024 * 1024;

function fleetUrl(text: string | undefined, option: string): string {
  if (!isFleetUrl(text)) throw new InputError(`${option} must be a postgres:// URL of the fleet store${text === undefined ? '' : `, not "${text}"`}`);
  return text;
}

/** `readOnly`: status and report only read, so they leave an older fleet schema as it is (a writer brings it forward). */
async function withFleet<T>(url: string, fn: (fleet: FleetDb) => Promise<T>, readOnly = false): Promise<T> {
  const fleet = await openFleet(url, { readOnly });
  try {
    return await fn(fleet);
  } finally {
    await fleet.close();
  }
}

function readBox(file: string, knownDice: readonly string[]): ReturnType<typeof parseBox> {
  let text: string;
  try {
    const { size } = statSync(file);
    if (size > MAX_BOX_BYTES) throw new InputError(`the dice box is ${size} bytes; at most ${MAX_BOX_BYTES} are read`, { file });
    const decoded = utf8Text(readFileSync(file));
    if (!decoded.ok) throw new InputError(notUtf8('dice box', decoded.line), { file });
    text = decoded.text;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read the dice box: ${fileReadProblem(e, 'no such file')}`, { file }, { cause: e });
  }
  return parseBox(text, file, knownDice);
}

/** `6=0.04`: the symbol a simulated rig favours (on every face showing it) and by how much. */
function parseRigBias(text: string): { symbol: string; excess: number } {
  const m = /^\s*([^=\s]+)\s*=\s*([+-]?\d*\.?\d+)\s*$/.exec(text);
  if (!m) throw new InputError(`--sim-rig-bias "${text}": expected SYMBOL=EXCESS, e.g. 6=0.04 (a 6 comes up 0.04 more often on this rig) or hit=0.03`);
  return { symbol: m[1] as string, excess: Number(m[2]) };
}

interface CreateFlags {
  dice: string;
  rigs: number;
  db: string;
  channels: number;
  rolls: number;
  rotate?: boolean;
  legs?: number;
  alpha: number;
  diceFile?: string;
  json?: boolean;
}

interface RunFlags {
  rig: string;
  fleet: string;
  db?: string;
  config?: string;
  seed: number;
  simRigBias?: string;
  simUnreadableFace?: string;
  poll: number;
  batches?: number;
  host?: string;
  takeOver?: boolean;
  json?: boolean;
  plain?: boolean;
}

/** The simulation knobs of `campaign run` as given, for the command that runs it again (the same seed and rig). */
function simulationWords(flags: RunFlags): string[] {
  return [
    ...(flags.seed !== 1 ? ['--seed', String(flags.seed)] : []),
    ...(flags.simRigBias !== undefined ? ['--sim-rig-bias', flags.simRigBias] : []),
    ...(flags.simUnreadableFace !== undefined ? ['--sim-unreadable-face', flags.simUnreadableFace] : []),
  ];
}

/** Registers `dicerig campaign create|status|run|report`. */
export function registerCampaignCommand(program: Command, io: CliIo): void {
  const campaign = program
    .command('campaign')
    .summary('test a box of dice on a fleet of rigs: plan, progress, one report')
    .description(
      'A campaign spreads a box of dice over several rigs that share a fleet store (PostgreSQL). `create` plans it (each die rotated over two rigs by default, so a rig ' +
        'that favours a face is told from a die that does); each rig host runs `campaign run NAME --rig ID`, which takes the next dice due, rolls them in a local session ' +
        'and copies it to the fleet store; `status` shows progress; `report` gives every die\'s verdicts across rigs and the rig-effect analysis.',
    );

  campaign
    .command('create')
    .summary('plan a campaign in the fleet store')
    .argument('<name>', 'campaign name')
    .requiredOption('--dice <box.csv>', 'the dice box: CSV with columns label,die (one die a line)')
    .requiredOption('--rigs <n>', 'how many rigs', positiveIntArg)
    .requiredOption('--db <url>', FLEET_HELP)
    .option('--channels <n>', 'dice a rig rolls at once', positiveIntArg, 4)
    .option('--rolls <n>', 'roll budget of each die on each rig it visits', positiveIntArg, 1000)
    .option('--rotate', 'rotate each die over several rigs (default with two rigs or more)')
    .option('--no-rotate', 'keep each die on one rig')
    .option('--legs <n>', 'rigs each die visits when rotating (default 2)', positiveIntArg)
    .option('--alpha <p>', 'error rate of the rig-effect decisions (split over the die types), and again of the dice\'s pooled verdicts (Holm over every die of the box): campaign report states what it covers', probabilityArg, 0.01)
    .option('--dice-file <file>', 'your own die definitions (JSON/YAML) besides the built-in dice')
    .option('--json', 'print the plan as JSON')
    .action(async (name: string, flags: CreateFlags) => {
      checkCampaignName(name);
      const url = fleetUrl(flags.db, '--db');
      const dice = loadDice(flags.diceFile);
      const box = readBox(flags.dice, dice.map((d) => d.id));
      const boxTypes = [...new Set(box.map((d) => d.die))].map((id) => getDieType(id, dice));
      // Refused now, not when a rig host takes the die: no batch of it could be rolled.
      for (const type of boxTypes) {
        const why = noSessionReader(type);
        const first = box.find((d) => d.die === type.id);
        if (why !== undefined) throw new InputError(`die ${first?.label ?? ''} is a "${type.id}" die, which no session can roll: ${why}`, { file: flags.dice, ...(first !== undefined ? { line: first.line } : {}), column: 'die' });
      }
      // The box's own dice are kept with the campaign: its batches, report and the fleet page judge them so, with no file.
      const dieTypes = ownDieTypes(boxTypes);
      const settings = {
        ...campaignSettings({ rigs: flags.rigs, channels: flags.channels, rollsPerLeg: flags.rolls, ...(flags.rotate !== undefined ? { rotate: flags.rotate } : {}), ...(flags.legs !== undefined ? { legsPerDie: flags.legs } : {}) }),
        ...(dieTypes.length > 0 ? { dieTypes } : {}),
      };
      const plan = planCampaign(box, settings);
      const rounds = previewRounds(plan);
      await withFleet(url, async (fleet) => {
        await createCampaign(fleet, url, { name, settings: { ...settings, alpha: flags.alpha }, dice: box.map((d) => ({ label: d.label, die: d.die })), legs: plan.legs, now: Date.now() });
        if (flags.json === true) {
          io.out(`${toJson({ name, settings: { ...settings, alpha: flags.alpha }, dice: box.length, legs: plan.legs, rounds })}\n`);
          return;
        }
        io.out(
          `Campaign ${name}: ${formatCountOf(box.length, 'die', 'dice')} on ${formatCountOf(settings.rigs, 'rig')} (${plan.rigs.join(', ')}), ${settings.channels} at a time, ` +
            `${settings.rotate ? `each die on ${settings.legsPerDie} rigs` : 'each die on one rig'}, up to ${formatCountOf(settings.rollsPerLeg, 'roll')} a die a rig: ` +
            `${formatCountOf(plan.legs.length, 'leg')}, about ${formatCountOf(rounds.length, 'round')} if the rigs keep pace.\n` +
            `On each rig host: ${rigHostCommand(name, fleet.where)}\n`,
        );
      });
    });

  campaign
    .command('status')
    .summary("a campaign's progress across the fleet")
    .argument('<name>', 'campaign name')
    .requiredOption('--db <url>', FLEET_HELP)
    .option('--json', 'print as JSON')
    .action(async (name: string, flags: { db: string; json?: boolean }) => {
      const url = fleetUrl(flags.db, '--db');
      await withFleet(url, async (fleet) => {
        const figures = await readCampaignStatus(fleet, url, name);
        io.out(flags.json === true ? `${toJson(figures)}\n` : formatCampaignStatus(figures));
      }, true);
    });

  campaign
    .command('run')
    .summary("one rig host's part: take the next dice due, roll, sync, repeat")
    .argument('<name>', 'campaign name')
    .requiredOption('--rig <id>', "this rig's id in the campaign (1..N)")
    .requiredOption('--fleet <url>', FLEET_HELP)
    .option('--db <path>', `local ${DB_HELP}`)
    .option('--config <file>', "this rig's session config (rig, camera, stopping rules); its dice are replaced by the campaign's (default: the simulated rig and camera)")
    .option('--seed <n>', 'seed of the simulated parts', nonNegativeIntArg, 1)
    .option('--sim-rig-bias <symbol=excess>', 'simulated camera only: this rig favours a symbol on every die that shows it, e.g. 6=0.04 or hit=0.03')
    .option('--sim-unreadable-face <face>', "simulated camera only: this rig's camera cannot read this D6 face (drawn as a logo), e.g. 6")
    .option('--poll <ms>', 'when the dice due here are all in other rigs, ask again after this long', positiveIntArg, 5000)
    .option('--batches <n>', 'stop after this many batches', positiveIntArg)
    .option('--host <name>', "this rig host's name as the fleet store records it (default: the hostname)")
    .option('--take-over', CAMPAIGN_TAKE_OVER_HELP)
    .option('--json', 'print each session\'s end as JSON (no progress)')
    .option('--plain', 'plain progress lines even on a terminal')
    .action(async (name: string, flags: RunFlags) => {
      const url = fleetUrl(flags.fleet, '--fleet');
      if (isFleetUrl(flags.db)) throw new InputError('--db is this rig host\'s local roll store (a file); the fleet store is --fleet');
      const base = flags.config === undefined ? undefined : await loadSessionConfig(flags.config);
      const output = { ...(flags.json === true ? { json: true } : {}), ...(flags.plain === true ? { plain: true } : {}) };
      const db = rollStorePath(flags.db, base?.db);
      // Ctrl-C's summary suggests this command again (it resumes the open batch), not the session's own `run --resume`.
      const again = rerunCommand(
        ['campaign', 'run', name, '--rig', flags.rig, '--fleet', url, '--db', db, ...(flags.config !== undefined ? ['--config', flags.config] : []), ...(flags.host !== undefined ? ['--host', flags.host] : []), ...simulationWords(flags)],
        url,
      );
      const result = await runCampaignRig(io, {
        runSession: (config, sessionDb, f) => runWithProgress(io, config, sessionDb, { ...output, ...f }, undefined, () => again),
        url,
        campaign: name,
        rig: flags.rig,
        db,
        seed: flags.seed,
        pollMs: flags.poll,
        again,
        ...(base ? { base } : {}),
        ...(flags.simRigBias !== undefined ? { rigBias: parseRigBias(flags.simRigBias) } : {}),
        ...(flags.simUnreadableFace !== undefined ? { unreadableFace: flags.simUnreadableFace } : {}),
        ...(flags.batches !== undefined ? { maxBatches: flags.batches } : {}),
        ...(flags.host !== undefined ? { host: flags.host } : {}),
        ...(flags.takeOver === true ? { takeOver: true } : {}),
      });
      sayRigLoopEnd(io, flags.rig, result);
    });

  campaign
    .command('report')
    .summary("every die's verdicts across rigs, and which rig (if any) favours a face")
    .argument('<name>', 'campaign name')
    .requiredOption('--db <url>', FLEET_HELP)
    .option('--dice-file <file>', 'your own die definitions (JSON/YAML) besides the built-in dice')
    .option('--json', 'print as JSON')
    .action(async (name: string, flags: { db: string; json?: boolean; diceFile?: string }) => {
      const url = fleetUrl(flags.db, '--db');
      await withFleet(url, async (fleet) => {
        const given = loadDice(flags.diceFile);
        const { campaign: c, sessions, rows, unresolved, analysis, unknownTypes } = await readCampaignFindings(fleet, url, name, given);
        // The box is judged by the definitions kept with the campaign; a file defining one otherwise is set aside, said.
        for (const own of campaignDieTypes(c)) {
          const other = flags.diceFile !== undefined ? given.find((d) => d.id === own.id) : undefined;
          if (other !== undefined && !sameDieType(other, own)) io.err(`dicerig: note: ${flags.diceFile} defines die "${own.id}" otherwise than campaign ${c.name} keeps it: the campaign's dice are judged by the definition it was created with.\n`);
        }
        if (unknownTypes.length > 0) {
          throw new InputError(`campaign ${c.name}'s box holds ${unknownTypes.map((t) => `"${t}"`).join(', ')} dice, whose definitions it does not keep (it was created before campaigns kept them): give their dice file with --dice-file`);
        }
        if (flags.json === true) io.out(`${toJson({ campaign: c.name, sessions, rolls: rows, unresolvedRolls: unresolved, ...analysis })}\n`);
        else io.out(formatCampaignReport(c.name, sessions, analysis, unresolved));
      }, true);
    });
}

/** The command each rig host runs, pasteable: the password left out of the URL (shown as ***), and said where it goes. */
function rigHostCommand(name: string, where: string): string {
  const { url, passwordLeftOut } = commandUrl(where);
  return `dicerig campaign run ${shellWord(name)} --rig ID --fleet ${shellWord(url)} --db LOCAL.db${passwordLeftOut ? PASSWORD_HINT : ''}`;
}
