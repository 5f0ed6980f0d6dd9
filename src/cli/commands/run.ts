import type { Command } from 'commander';
import { loadSessionConfig, type SessionConfig } from '../../session/config.js';
import type { SessionEvent } from '../../session/events.js';
import { jsonLineEvents, TerminalProgress } from '../../session/progress.js';
import { runSession, type SessionResult } from '../../session/runner.js';
import { openSession, runnerDeps, type OpenedSession } from '../../session/setup.js';
import { formatSessionSummary, sessionSummaryJson } from '../../session/summary.js';
import { rollStorePath, SESSION_DB_HELP } from '../dbOption.js';
import type { CliIo } from '../io.js';
import { positiveIntArg, positiveNumberArg, toJson } from '../options.js';
import { attachFleetSync, checkFleetUrl, FLEET_HELP } from '../fleetSync.js';
import { runCampaignRig, sayRigLoopEnd } from '../campaign/rigLoop.js';
import { rerunCommand } from '../campaign/campaignText.js';
import { InputError } from '../../core/errors.js';
import { checkHostName } from '../../fleet/hostName.js';
import { formatCountOf, shellWord } from '../../core/format.js';
import { storeFailure } from '../../store/openStore.js';
import { rigFactories } from '../../rig/factory.js';
import { checkOutputFolder } from '../outputFile.js';

export const TAKE_OVER_HELP =
  "with --resume: take the session over from a run on another host that holds it and that you know is gone (a run on this host that died is taken over by itself; a live one never is)";
/** `--take-over` of a campaign's rig host (`campaign run`, `run --campaign`). */
export const CAMPAIGN_TAKE_OVER_HELP =
  "take this rig's open batch over from the host or local store holding it, which you know is gone (its session's rolls then no longer count for the batch; a live run of this host and store is never taken over)";
export const TAKE_OVER_NEEDS_RESUME = '--take-over takes over a stored session from a run that is gone: give the session with --resume SESSION';

/** How a session's progress and end are shown. */
export interface SessionOutputFlags {
  /** Print the end as JSON (no progress). */
  readonly json?: boolean;
  /** Print every event as a JSON line (then the summary as a last `{"type":"summary"}` line). */
  readonly events?: boolean;
  /** Plain progress lines even on a terminal. */
  readonly plain?: boolean;
  /** The fleet store to replicate to while the session runs (postgres:// URL). */
  readonly fleet?: string;
  /** This rig host's name as the fleet store records it (default: the hostname). */
  readonly host?: string;
}


/**
 * Opens, runs and closes a session with progress on the terminal; Ctrl-C stops
 * it after the current throw (twice: at once). Returns the result and the
 * opened session's facts for the caller's own closing words.
 */
export async function runWithProgress(
  io: CliIo,
  /** The session's config; undefined to resume a session with its stored config. */
  config: SessionConfig | undefined,
  db: string,
  flags: SessionOutputFlags & {
    readonly resume?: string;
    readonly moreRolls?: number;
    readonly moreHours?: number;
    readonly keepFrames?: string;
    readonly takeOver?: boolean;
    /** Runs once the session is open, before its first throw (a campaign binds the session to its batch); if it throws, nothing is rolled. */
    readonly onOpened?: (sessionId: number) => Promise<void>;
    /** What copies throws replication left behind (default: `dicerig sync`; a campaign batch's own close does more). */
    readonly fleetLater?: string;
  },
  afterSummary?: (result: SessionResult, opened: OpenedSession) => string,
  resumeCommand?: (sessionId: number) => string,
): Promise<SessionResult> {
  const quiet = flags.json === true || flags.events === true;
  const log = (m: string): void => (quiet ? io.err(`${m}\n`) : io.out(`${m}\n`));
  if (flags.fleet !== undefined) checkFleetUrl(flags.fleet);
  // Before the store is opened: a --keep-frames that is a file or read-only failed after an empty store was made.
  if (flags.keepFrames !== undefined) checkOutputFolder('--keep-frames', flags.keepFrames);
  const opened = await openSession({ ...(config !== undefined ? { config } : {}), dbPath: db, ...(flags.resume !== undefined ? { resume: flags.resume } : {}), ...(flags.moreRolls !== undefined ? { moreRolls: flags.moreRolls } : {}), ...(flags.moreHours !== undefined ? { moreHours: flags.moreHours } : {}), ...(flags.keepFrames !== undefined ? { keepFrames: flags.keepFrames } : {}), ...(flags.takeOver === true ? { takeOver: true } : {}), wallNow: () => Date.now(), cameraMustAnswer: true, log });
  if (flags.onOpened !== undefined) {
    try {
      await flags.onOpened(opened.plan.sessionId);
    } catch (e) {
      // Nothing was rolled: the session is left ended, not running (never-started when it has no throw yet).
      const stored = opened.store.getSession(opened.plan.sessionId);
      opened.store.endSession(opened.plan.sessionId, opened.timeOrigin + opened.clock.now(), stored !== undefined && stored.throwCount > 0 ? 'stopped' : 'never-started');
      await opened.close();
      throw e;
    }
  }
  const resumeLine = (sessionId: number): string => resumeCommand?.(sessionId) ?? `dicerig run --resume ${sessionId} --db ${shellWord(db)}`;
  // Started once the session is open: a session that never opens copies nothing and leaves nothing running.
  const fleet = flags.fleet !== undefined ? attachFleetSync(io, db, flags.fleet, flags.host, flags.fleetLater) : undefined;
  const controller = new AbortController();
  let interrupts = 0;
  // SIGTERM (systemd, docker stop) and SIGHUP (a closed terminal or SSH session) stop the session as Ctrl-C does.
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupts++;
    if (interrupts === 1) {
      io.err(`\nStopping after the current throw (it is being stored)${signal === 'SIGINT' ? '; press Ctrl-C again to quit at once' : ` (${signal})`}.\n`);
      controller.abort();
    } else {
      // Quitting at once: the store is closed first, so its write-ahead log is folded into the store file (a copy of
      // the file alone holds every stored throw) and its session lock is freed; the throw under way is void.
      try {
        const id = opened.plan.sessionId;
        const stored = opened.store.getSession(id)?.throwCount ?? 0;
        const copied = flags.fleet !== undefined ? ' Throws not yet copied to the fleet store are copied by the next run (or dicerig sync).' : '';
        io.err(`Quitting at once: the ${formatCountOf(stored, 'throw')} stored so far ${stored === 1 ? 'is' : 'are'} kept in ${db} (session ${id}); the throw under way is not counted.${copied} Resume: ${resumeLine(id)}\n`);
        opened.store.close();
      } finally {
        process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
      }
    }
  };
  const stopSignals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of stopSignals) process.on(s, onSignal);
  // --events writes every event whole; the progress display reads a throw's dice only when it shows them.
  const onEvent: ((e: SessionEvent) => void) | undefined = flags.events
    ? jsonLineEvents((line) => io.out(line))
    : flags.json
      ? undefined
      : new TerminalProgress({
          write: (s) => io.out(s),
          tty: process.stdout.isTTY === true && flags.plain !== true,
          now: () => performance.now(),
          ...(process.stdout.columns !== undefined ? { columns: process.stdout.columns } : {}),
        }).onEvent;
  const wall0 = performance.now();
  let result: SessionResult;
  let head: { hash: string; throwCount: number } | undefined;
  let fleetLine = '';
  let unclosed: unknown;
  try {
    result = await runSession(
      runnerDeps(opened, {
        // No listener (--json): the runner skips the per-throw dice statuses nobody would read. The fleet replicator
        // reads no event: it is only poked.
        ...(fleet !== undefined ? { onStored: fleet.poke } : {}),
        ...(onEvent !== undefined ? { onEvent, diceOnDemand: flags.events !== true } : {}),
        signal: controller.signal,
        stopwatch: () => performance.now(),
      }),
      opened.plan,
    );
  } catch (e) {
    // The store failing mid-run (its disk full, say) is said with the file, its disk and how to go on.
    throw storeFailure(e, db, true, { resume: resumeCommand?.(opened.plan.sessionId) ?? `dicerig run --resume ${opened.plan.sessionId} --db ${shellWord(db)}` });
  } finally {
    for (const s of stopSignals) process.off(s, onSignal);
    // The head to write down elsewhere (verify --expect), read before the store closes.
    const s = opened.store.getSession(opened.plan.sessionId);
    if (s !== undefined) head = { hash: s.headHash, throwCount: s.throwCount };
    try {
      await opened.close();
    } catch (e) {
      // A full disk fails the close too (the session's claim cannot be freed; the next run on this host takes it over
      // by itself): after a failed run, the run's own failure is the one to tell.
      unclosed = e;
    } finally {
      // On every way out: the replicator's last pass, then its own connection to the store closes (see LocalRows.open).
      fleetLine = (await fleet?.finish()) ?? '';
    }
  }
  if (unclosed !== undefined) throw storeFailure(unclosed, db, true);
  const ctx = {
    db,
    simulated: opened.simulated,
    simulatedClock: opened.simulatedClock,
    wallMs: performance.now() - wall0,
    rules: opened.config.stopping,
    ...(resumeCommand ? { resumeCommand: resumeCommand(result.sessionId) } : {}),
    // A session can be rolled on with --more-rolls, but not a campaign's leg.
    canRollOn: opened.config.campaign === undefined,
  };
  const pin = head === undefined ? '' : `Chain head: ${head.hash} (throw ${head.throwCount}); write it down to check the store later with dicerig verify --expect HASH.\n`;
  const extra = (afterSummary?.(result, opened) ?? '') + pin + fleetLine;
  if (flags.events) io.out(`${JSON.stringify({ type: 'summary', ...sessionSummaryJson(result, ctx), ...(extra ? { note: extra.trim() } : {}) })}\n`);
  else if (flags.json) io.out(`${toJson({ ...sessionSummaryJson(result, ctx), ...(extra ? { note: extra.trim() } : {}) })}\n`);
  else io.out(`\n${formatSessionSummary(result, ctx)}${extra}`);
  // A verdict, even UNFAIR, is a result; a session stopped by faults or by the user is not finished.
  if (result.state === 'aborted') io.setExitCode(1);
  else if (result.state === 'stopped') io.setExitCode(130);
  return result;
}

interface RunFlags extends SessionOutputFlags {
  db?: string;
  resume?: string;
  moreRolls?: number;
  moreHours?: number;
  fleet?: string;
  campaign?: string;
  rig?: string;
  poll?: number;
  keepFrames?: string;
  takeOver?: boolean;
  diceFile?: string;
}

/** Registers `dicerig run <config>`. */
export function registerRunCommand(program: Command, io: CliIo): void {
  program
    .command('run')
    .summary('roll a session: tumble, read, store and judge until every die has a verdict')
    .description(
      'Runs a session from a config file (YAML or JSON; see examples/sessions/): the rig tumbles, the camera watches until the dice are still, ' +
        'every die is read and the throw stored (a cocked or extra die re-tumbles the throw, logged with evidence; a die unreadable or not found is kept as an unresolved roll for a person to label), ' +
        'each die\'s sequential monitor is updated, and the session stops when every die has a verdict, a budget is spent, the rig looks suspect, ' +
        'or the rig faults too often. Ctrl-C stops after the current throw; --resume continues a session after a crash or power loss. ' +
        'Exit status 0 when the session finished (whatever the verdicts), 1 when it was aborted, 130 when stopped by the user.',
    )
    .argument('[config]', 'session config file (YAML or JSON; not needed with --resume, whose session keeps its stored config); with --campaign, the rig\'s config (its dice come from the campaign; default: simulated rig and camera)')
    .option('--db <path>', SESSION_DB_HELP)
    .option('--dice-file <file>', "JSON/YAML file defining dice of your own for the config's dice (instead of its diceFile); the session keeps their definitions, so --resume, report and analyze need no file")
    .option('--resume <session>', 'continue this session (id or name) from its last stored throw; the session keeps its stored config')
    .option('--more-rolls <n>', 'with --resume: raise the session\'s roll budget by n rolls a die, so its dice left INCONCLUSIVE when the budget was spent are rolled on, on the same evidence (a new session would start from nothing)', positiveIntArg)
    .option('--more-hours <h>', "with --resume: raise the session's time budget by h hours; the budget counts the rolling time of all the session's runs, so a resumed session gets only what is left of it, and one that finished on it rolls on only with this", positiveNumberArg)
    .option('--take-over', `${TAKE_OVER_HELP}; with --campaign: ${CAMPAIGN_TAKE_OVER_HELP}`)
    .option('--json', 'print the end of the session as JSON (no progress)')
    .option('--events', 'print every event as one JSON line (throws, faults, verdicts, rig checks), then the summary')
    .option('--plain', 'plain progress lines even on a terminal')
    .option('--fleet <url>', FLEET_HELP)
    .option('--host <name>', "with --fleet: this rig host's name as the fleet store records it (default: the hostname)")
    .option('--campaign <name>', 'roll for this campaign in the --fleet store: take the next dice due for --rig, roll, sync, repeat (as `dicerig campaign run`)')
    .option('--rig <id>', "with --campaign: this rig's id in the campaign")
    .option('--poll <ms>', `with --campaign: when the dice due here are all in other rigs, ask again after this long (default: ${CAMPAIGN_RUN_POLL_MS})`, positiveIntArg)
    .option('--keep-frames <dir>', 'keep every frame a throw is read from, with the empty platform, in this new folder: kept throws the rig threw, for calibrate --camera DIR (a D6 check or an X-Wing calibration named a group at a time)')
    .action(async (file: string | undefined, flags: RunFlags) => {
      if (flags.host !== undefined && flags.fleet === undefined) throw new InputError('--host names this rig host in the fleet store: it goes with --fleet postgres://URL');
      if (flags.host !== undefined) checkHostName(flags.host);
      if (flags.campaign !== undefined) {
        if (flags.keepFrames !== undefined) throw new InputError('--keep-frames keeps the frames of one session: run it with a session config, not --campaign');
        if (flags.diceFile !== undefined) throw new InputError("--dice-file defines the dice of one session config; a campaign's dice are the campaign's (dicerig campaign --dice-file)");
        await runCampaignFromRun(io, file, flags.campaign, flags);
        return;
      }
      // `--rig emulated` reads as a choice of driver, but --rig is a campaign's rig id: ignored, the session ran on its config's rig.
      if (flags.poll !== undefined) throw new InputError('--poll is how often a campaign rig host asks for dice while all its dice are in other rigs: it goes with --campaign NAME --rig ID --fleet postgres://URL');
      if (flags.rig !== undefined) throw new InputError(`--rig names this rig in a campaign: it goes with --campaign NAME --fleet postgres://URL. A session runs on its config's rig: set rig.driver (${rigFactories.names().join(', ')}) in the config`);
      if (flags.moreRolls !== undefined && flags.resume === undefined) throw new InputError('--more-rolls raises the roll budget of a stored session: give the session with --resume SESSION');
      if (flags.moreHours !== undefined && flags.resume === undefined) throw new InputError('--more-hours raises the time budget of a stored session: give the session with --resume SESSION');
      if (flags.takeOver === true && flags.resume === undefined) throw new InputError(TAKE_OVER_NEEDS_RESUME);
      if (file === undefined && flags.resume === undefined) throw new InputError('run needs a session config file (or --resume SESSION to continue a stored session with its stored config, or --campaign NAME --rig ID --fleet URL)');
      if (file === undefined && flags.diceFile !== undefined) throw new InputError("--dice-file defines the dice of a session config: a resumed session runs with the die definitions stored with it (give the config too, and its dice are checked against them)");
      // A resumed session runs with the config stored with it (rig, port, camera, dice, rules): a file given is only
      // checked against it (the same dice) and may name the store (its db key).
      const config = file === undefined ? undefined : await loadSessionConfig(file, flags.diceFile !== undefined ? { diceFile: flags.diceFile } : {});
      const db = rollStorePath(flags.db, config?.db);
      // The config given again is checked against the session's dice, so it needs its dice file again too.
      const diceFile = flags.diceFile !== undefined ? `--dice-file ${shellWord(flags.diceFile)} ` : '';
      await runWithProgress(io, config, db, flags, undefined, (id) => `dicerig run ${file !== undefined ? `${shellWord(file)} ${diceFile}` : ''}--resume ${id} --db ${shellWord(db)}`);
    });
}

/** How long `run --campaign` waits before asking again while its dice are all in other rigs, unless --poll says. */
const CAMPAIGN_RUN_POLL_MS = 2000;

async function runCampaignFromRun(io: CliIo, file: string | undefined, campaign: string, flags: RunFlags): Promise<void> {
  if (flags.rig === undefined || flags.fleet === undefined) throw new InputError('--campaign needs --rig ID and --fleet postgres://URL');
  if (flags.resume !== undefined || flags.moreRolls !== undefined || flags.moreHours !== undefined) throw new InputError(`${flags.resume !== undefined ? '--resume' : flags.moreRolls !== undefined ? '--more-rolls' : '--more-hours'} does not go with --campaign: a rig host resumes its open batch by itself, and a leg's budget is the campaign's`);
  const base = file === undefined ? undefined : await loadSessionConfig(file);
  const output = { ...(flags.json === true ? { json: true } : {}), ...(flags.events === true ? { events: true } : {}), ...(flags.plain === true ? { plain: true } : {}) };
  const db = rollStorePath(flags.db, base?.db);
  // Ctrl-C's summary suggests this command again (it resumes the open batch), not the session's own `run --resume`.
  const again = rerunCommand(['run', ...(file !== undefined ? [file] : []), '--campaign', campaign, '--rig', flags.rig, '--fleet', flags.fleet, '--db', db, ...(flags.host !== undefined ? ['--host', flags.host] : [])], flags.fleet);
  const result = await runCampaignRig(io, {
    runSession: (config, sessionDb, f) => runWithProgress(io, config, sessionDb, { ...output, ...f }, undefined, () => again),
    url: flags.fleet,
    campaign,
    rig: flags.rig,
    db,
    seed: base?.seed ?? 1,
    pollMs: flags.poll ?? CAMPAIGN_RUN_POLL_MS,
    again,
    ...(flags.takeOver === true ? { takeOver: true } : {}),
    ...(flags.host !== undefined ? { host: flags.host } : {}),
    ...(base ? { base } : {}),
  });
  sayRigLoopEnd(io, flags.rig, result);
}
