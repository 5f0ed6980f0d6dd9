/**
 * Starts the whole thing: opens the session (the simulated rig and camera
 * with --sim, else the real ones from the config), the rig controller, the
 * live hub and the HTTP server, and closes them in order.
 */
import type { FastifyInstance } from 'fastify';
import { checkSessionConfig, type SessionConfig } from '../session/config.js';
import { cpuStopwatch } from '../session/hostTiming.js';
import { openSession, type OpenedSession } from '../session/setup.js';
import { createServer, type Limits } from './app.js';
import { LiveHub } from './live/hub.js';
import { RigController, type Mode, type RollJob } from './rigController.js';
import type { Tokens } from './security/auth.js';
import { cameraProblem } from '../session/cameraCheck.js';
import { freeServeName, serveSessionBase, serveSessionName } from './serveSessionName.js';
import { ServeStopError } from './serveStopError.js';
import { storeFailure } from '../store/openStore.js';
import { checkBinding, checkListenable, isLoopback, listenFailure, onlyThisMachine } from './security/bind.js';
import { proxyLine } from './security/trustedProxies.js';
import { shownUrl } from './security/shownUrl.js';

export type SimDice = 'xwing' | 'd6';

/** The simulated rig's config for `serve --sim`: real time (a stream is watched live), X-Wing dice or D6s with a direction die. */
export function simServeConfig(
  dice: SimDice,
  options: { readonly seed?: number; readonly clock?: 'system' | 'simulated'; readonly timing?: NonNullable<SessionConfig['rig']['sim']>['timing']; readonly cockedRate?: number } = {},
): SessionConfig {
  const { seed = 1, clock = 'system', timing, cockedRate = 0.02 } = options;
  const set =
    dice === 'xwing'
      ? [
          { label: 'sim-red-1', type: 'red' },
          { label: 'sim-red-2', type: 'red' },
          { label: 'sim-green-1', type: 'green' },
          { label: 'sim-green-2', type: 'green' },
        ]
      : [
          { label: 'sim-d6-1', type: 'd6' },
          { label: 'sim-d6-2', type: 'd6' },
          { label: 'sim-d6-3', type: 'd6' },
          { label: 'sim-direction', type: 'direction' },
        ];
  return checkSessionConfig(
    {
      dice: set.map((d) => ({ ...d, set: 'dicerig serve --sim' })),
      rig: { driver: 'sim', light: 200, ...(timing ? { sim: { timing } } : {}) },
      camera: { source: 'sim', lighting: 'studio', cockedRate, dieSizePx: 72, fps: 30, frames: 'rest' },
      settle: { mode: 'detect', timeoutMs: 5000 },
      stopping: { alpha: 0.01, delta: 0.05, budgetRolls: 3000 },
      seed,
      clock,
      evidence: 'rerolls',
    },
    '--sim',
  );
}

export interface ServeOptions {
  readonly config: SessionConfig;
  readonly dbPath: string;
  readonly host: string;
  readonly port: number;
  readonly tokens: Tokens;
  readonly mode?: Mode;
  readonly limits?: Partial<Limits>;
  /** The reverse proxies in front, if any (trustedProxies.ts): they need the API token, as --host beyond loopback does. */
  readonly trustedProxies?: readonly string[];
  readonly chatWaitMs?: number;
  /** Milliseconds clock for the rate limits (default performance.now). */
  readonly limitClock?: () => number;
  readonly log?: (line: string) => void;
  /** What the fairness run's host time per throw is measured with (default: CPU time, see `cpuStopwatch`). */
  readonly stopwatch?: () => number;
}

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly controller: RigController;
  readonly hub: LiveHub;
  readonly opened: OpenedSession;
  /** http://host:port */
  readonly url: string;
  /** Stops after the current throw, answers every waiting caller, and closes; returns the rolls abandoned. */
  close(): Promise<RollJob[]>;
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const proxies = options.trustedProxies ?? [];
  checkBinding(options.host, options.tokens.api !== undefined, proxies);
  // Before the store and the rig: a port in use creates nothing.
  await checkListenable(options.host, options.port);
  const log = options.log ?? (() => undefined);
  // Each start begins a new fairness session; the config's name is unique in the store, so it is given with the start.
  const config = { ...options.config, name: serveSessionName(serveSessionBase(options.config.name, 'fairness'), options.dbPath, new Date()) };
  const opened = await openSession({ config, dbPath: options.dbPath, wallNow: () => Date.now(), log });
  // A live camera that cannot be opened says so now, not at the first viewer's roll (a simulated or replayed one always can).
  if (opened.config.camera.source === 'device') {
    const problem = await cameraProblem(opened.camera, opened.clock);
    log(problem === undefined ? `${opened.camera.description}: frames arriving` : `${problem.replace(/\.?\s*$/, '.')} Rolls fail until it gives frames (each roll opens it again).`);
  }
  log(`fairness session ${opened.session.id} is named "${config.name}" (each start of serve begins a new one; a session name is unique in the roll store)`);
  // The hub asks the controller for the state; the controller publishes through the hub.
  const ref: { controller?: RigController } = {};
  const hub = new LiveHub(() => ref.controller?.snapshot() ?? {});
  const sessionName = (kind: 'fairness' | 'stream'): string =>
    freeServeName(serveSessionBase(options.config.name, kind), new Set(opened.store.sessions().flatMap((s) => (s.name !== null ? [s.name] : []))), new Date());
  const controller = new RigController({ opened, hub, now: () => Date.now(), stopwatch: options.stopwatch ?? cpuStopwatch, ...(options.mode ? { mode: options.mode } : {}), log, sessionName });
  ref.controller = controller;
  let app: FastifyInstance;
  try {
    app = await createServer({ controller, hub, tokens: options.tokens, loopback: onlyThisMachine(options.host, proxies), trustedProxies: proxies, ...(options.limits ? { limits: options.limits } : {}), ...(options.chatWaitMs !== undefined ? { chatWaitMs: options.chatWaitMs } : {}), ...(options.limitClock ? { limitClock: options.limitClock } : {}) });
    await app.listen({ host: options.host, port: options.port });
  } catch (e) {
    await controller.close();
    await opened.close();
    throw listenFailure(e, options.host, options.port);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const { url, local } = shownUrl(options.host, port);
  if (!isLoopback(options.host)) log(`Listening on ${options.host}, reachable from the network${local !== undefined ? ` (from this machine: ${local})` : ''}: the roll API needs the API token.`);
  if (proxies.length > 0) log(proxyLine(proxies));
  const c = controller;
  let closing: Promise<RollJob[]> | undefined;
  return {
    app,
    controller: c,
    hub,
    opened,
    url,
    close: () =>
      (closing ??= (async () => {
        // The controller first: its abandoned rolls are told to the pages and to the callers still waiting, whose
        // answers the app's close then lets finish. Every step runs even if one before it failed (a full disk),
        // so the process can end; what failed is thrown at the end.
        const problems: string[] = [];
        let abandoned: RollJob[] = [];
        const step = async (what: string, run: () => unknown): Promise<void> => {
          try {
            await run();
          } catch (e) {
            if (e instanceof ServeStopError) {
              abandoned = [...e.abandoned];
              problems.push(...e.problems);
            } else {
              const told = storeFailure(e, opened.store.path, true);
              problems.push(`${what}: ${told instanceof Error ? told.message : String(told)}`);
            }
          }
        };
        await step('ending the sessions', async () => (abandoned = await c.close()));
        await step('closing the live pages', () => hub.closeAll());
        await step('closing the server', () => app.close());
        await step('closing the rig, the camera and the roll store', () => opened.close());
        if (problems.length > 0) throw new ServeStopError(problems, abandoned);
        return abandoned;
      })()),
  };
}
