import { randomInt } from 'node:crypto';
import type { Command } from 'commander';
import { InputError } from '../../core/errors.js';
import { tokensFrom } from '../../server/security/auth.js';
import { loadServeConfig, type ServerSection } from '../../server/serveConfig.js';
import { parseTrustedProxies } from '../../server/security/trustedProxies.js';
import { serve, simServeConfig, type SimDice } from '../../server/serve.js';
import type { SessionConfig } from '../../session/config.js';
import type { OpenedSession } from '../../session/setup.js';
import type { RollJob } from '../../server/rigController.js';
import { askedWords } from '../../server/queue/rollJob.js';
import type { CliIo } from '../io.js';
import { nonNegativeIntArg, positiveIntArg } from '../options.js';
import { isFleetUrl } from '../../fleet/connect.js';
import { serveFleetDashboard } from '../fleetServe.js';
import { SESSION_DB_HELP, rollStorePath } from '../dbOption.js';

interface ServeFlags {
  config?: string;
  sim?: string | boolean;
  port?: string;
  host?: string;
  db?: string;
  mode?: string;
  seed?: string;
  fleet?: string;
  poll?: number;
  diceFile?: string;
  trustProxy?: string;
}

export function portArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InputError(`--port must be a whole number from 0 to 65535, not "${value}"`);
  return n;
}

/** Registers `dicerig serve`. */
export function registerServeCommand(program: Command, io: CliIo): void {
  program
    .command('serve')
    .summary('live dashboard, OBS overlay and a roll API for chat and bots')
    .description(
      'Serves a live dashboard (/), an OBS browser-source overlay (/overlay), a roll API (POST /api/rolls, bearer token) and a chat-bot URL ' +
        '(GET /api/chat/roll?dice=3+red&token=CHAT_TOKEN), over the rig: stream rolling (the rig rolls when asked) or a fairness run, switchable live. ' +
        'Every roll is stored in the roll store. Tokens come from DICERIG_TOKEN and DICERIG_CHAT_TOKEN (or the config\'s server: section) and are never shown. ' +
        'Listens on 127.0.0.1 unless --host says otherwise (then an API token is required). Ctrl-C stops. ' +
        'With --db postgres://... (or --fleet) it serves instead a read-only dashboard of the fleet store: every rig\'s sessions with their verdicts, and the campaigns\' progress and rig effects.',
    )
    .option('--config <file>', 'session config (YAML or JSON) with the real rig and camera, and an optional server: section')
    .option('--sim [dice]', 'simulated rig and camera, no hardware: xwing (2 red, 2 green; default) or d6 (3 D6 and a direction die)')
    .option('--port <n>', 'port (default 8080; 0 picks a free one)')
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .option('--trust-proxy <addresses>', "behind a reverse proxy (Caddy, nginx): its addresses or ranges, comma-separated (e.g. 127.0.0.1); each client is then counted by the address the proxy forwards (X-Forwarded-For). Needs DICERIG_TOKEN")
    .option('--db <path>', SESSION_DB_HELP)
    .option('--mode <mode>', 'start in stream (default) or fairness mode')
    .option('--seed <n>', 'seed of the simulated rig, camera and dice with --sim (default: a new one each start)')
    .option('--fleet <url>', 'the fleet store (postgres://...; or give it as --db): a read-only dashboard of every rig\'s sessions and campaigns instead of this rig\'s')
    .option('--poll <ms>', 'with the fleet store: read it at most this often (default 5000)', positiveIntArg)
    .option('--dice-file <file>', 'with the fleet store: JSON/YAML file with user-defined dice (for sessions of user-defined types)')
    .action(async (flags: ServeFlags) => {
      const proxies = flags.trustProxy !== undefined ? parseTrustedProxies(flags.trustProxy, (problem) => new InputError(`--trust-proxy: ${problem}`)) : undefined;
      const fleetUrl = isFleetUrl(flags.db) ? flags.db : flags.fleet;
      if (fleetUrl !== undefined) {
        if (!isFleetUrl(fleetUrl)) throw new InputError(`--fleet must be a postgres:// URL of the fleet store, not "${fleetUrl}"`);
        if (flags.db !== undefined && flags.fleet !== undefined) throw new InputError('give the fleet store once: --db postgres://... or --fleet postgres://...');
        const { trustProxy: _given, ...fleetFlags } = flags;
        await serveFleetDashboard(io, fleetUrl, { ...fleetFlags, port: flags.port !== undefined ? portArg(flags.port) : 8080, ...(proxies ? { trustProxy: proxies } : {}) }, (close) =>
          untilStopped(io, close, 'Stopping.'),
        );
        return;
      }
      if ((flags.config === undefined) === (flags.sim === undefined)) throw new InputError('give either --config <file> (the real rig and camera) or --sim (no hardware)');
      let session: SessionConfig;
      let server: ServerSection = {};
      if (flags.config !== undefined) ({ session, server } = await loadServeConfig(flags.config));
      else {
        const dice = flags.sim === true ? 'xwing' : flags.sim;
        if (dice !== 'xwing' && dice !== 'd6') throw new InputError(`--sim takes xwing or d6, not "${String(dice)}"`);
        const seed = flags.seed !== undefined ? nonNegativeIntArg(flags.seed) : randomInt(0, 0xffffffff);
        session = simServeConfig(dice as SimDice, { seed });
      }
      if (flags.mode !== undefined && flags.mode !== 'stream' && flags.mode !== 'fairness') throw new InputError(`--mode is stream or fairness, not "${flags.mode}"`);
      const tokens = tokensFrom({ ...(server.token ? { api: server.token } : {}), ...(server.chatToken ? { chat: server.chatToken } : {}) }, process.env);
      const host = flags.host ?? server.host ?? '127.0.0.1';
      const port = flags.port !== undefined ? portArg(flags.port) : (server.port ?? 8080);
      const db = rollStorePath(flags.db, session.db);
      const trustedProxies = proxies ?? server.trustProxy;
      const running = await serve({
        config: session,
        dbPath: db,
        host,
        port,
        tokens,
        ...(trustedProxies ? { trustedProxies } : {}),
        ...(flags.mode ? { mode: flags.mode as 'stream' | 'fairness' } : {}),
        limits: {
          ...(server.apiPerMinute ? { apiPerMinute: server.apiPerMinute } : {}),
          ...(server.chatPerMinute ? { chatPerMinute: server.chatPerMinute } : {}),
          ...(server.liveMax ? { liveMax: server.liveMax } : {}),
          ...(server.livePerAddress ? { livePerAddress: server.livePerAddress } : {}),
        },
        log: (line) => io.out(`${line}\n`),
      });
      io.out(
        [
          `dicerig serve: ${rigAndCamera(running.opened)}, roll store ${db}`,
          `  dashboard   ${running.url}/`,
          `  overlay     ${running.url}/overlay   (OBS: add a Browser source with this URL)`,
          `  roll API    POST ${running.url}/api/rolls   ${tokens.api ? '(API token set)' : '(off: set DICERIG_TOKEN to turn it on)'}`,
          `  chat bots   GET  ${running.url}/api/chat/roll?dice=3+red&token=...   ${tokens.chat ? '(chat token set)' : '(off: set DICERIG_CHAT_TOKEN to turn it on)'}`,
          'Ctrl-C stops.',
          '',
        ].join('\n'),
      );
      await untilStopped(io, () => running.close(), 'Stopping: finishing the current throw, then closing (Ctrl-C again quits at once).', () =>
        atOnceLine(running.controller.runningSessions(), running.controller.rollUnderWay()),
      );
    });
}

/** The rig and the camera, each as what it is: a simulated part is called so, a real one by its name. */
export function rigAndCamera(opened: Pick<OpenedSession, 'rig' | 'identity' | 'config' | 'camera'>): string {
  const rig = opened.rig.isSimulated
    ? 'SIMULATED rig'
    : opened.config.rig.driver === 'emulated' || opened.config.rig.driver === 'emulated-firmata'
      ? `rig ${opened.identity.rigId} (EMULATED board: the firmware in simavr)`
      : `rig ${opened.identity.rigId}`;
  const camera = opened.config.camera.source === 'sim' ? 'SIMULATED camera' : opened.camera.description;
  return rig === 'SIMULATED rig' && camera === 'SIMULATED camera' ? 'SIMULATED rig and camera' : `${rig}, ${camera}`;
}

/**
 * Waits for Ctrl-C (or SIGTERM), then closes and returns. A second one quits at once (exit 130, or 143 for
 * SIGTERM), saying first what `atOnce` says is left behind.
 */
function untilStopped(io: CliIo, close: () => Promise<unknown>, saying: string, atOnce: () => string = () => 'Stopping at once.'): Promise<void> {
  return new Promise<void>((done) => {
    let signals = 0;
    const stop = (signal: NodeJS.Signals): void => {
      signals++;
      if (signals > 1) {
        io.err(`${atOnce()}\n`);
        process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
      }
      io.err(`\n${saying}\n`);
      // Closed, or failed to: either way this wait is over, and its handlers with it.
      const over = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        done();
      };
      void close().then(over, (e: unknown) => {
        // Every step of the stop ran; say what failed, and end with a failure status.
        io.err(`dicerig: ${(e as Error).message}\n`);
        io.setExitCode(1);
        over();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * What a second Ctrl-C leaves behind, truthfully: the store commits a throw whole or not at all, and a session
 * left `running` stays so (serve starts new sessions at each start and never reopens one; `run --resume` can).
 */
export function atOnceLine(running: readonly { readonly id: number; readonly kind: 'fairness' | 'stream' }[], underWay?: Pick<RollJob, 'id' | 'text' | 'by'>): string {
  const roll = underWay === undefined ? '' : ` (roll ${underWay.id}: ${askedWords(underWay)})`;
  const lost = `Stopping at once: the throw under way${roll} is not stored (a throw is stored whole or not at all) and callers still waiting get no answer`;
  if (running.length === 0) return `${lost}.`;
  const names = running.map((s) => `${s.id} (${s.kind})`).join(' and ');
  const fairness = running.find((s) => s.kind === 'fairness');
  const resume = fairness !== undefined ? `; \`dicerig run CONFIG --resume ${fairness.id}\` continues the fairness one` : '';
  return `${lost}; session${running.length > 1 ? 's' : ''} ${names} stay${running.length > 1 ? '' : 's'} marked running in the roll store (serve starts new sessions and never reopens them${resume}).`;
}
