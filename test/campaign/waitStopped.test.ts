/**
 * A rig host whose dice are all in another rig waits and asks again; stopped then (systemd's SIGTERM, Ctrl-C), it
 * says so and what to run to go on, and exits as a stopped run does, on a real PostgreSQL server with rig hosts as
 * processes of their own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DICERIG } from '../support/builtCli.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { cliHere, repoRoot, writeBox } from './support/campaignCli.js';
import { rigHostStoppedAt, slowRig } from './support/rigHost.js';

let server: ScratchPostgres;
let dir: string;

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = mkdtempSync(join(tmpdir(), 'dicerig-wait-stopped-'));
}, 120_000);

afterAll(async () => {
  await server?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs a rig host and sends it `signal` once it has said it waits for dice in other rigs. */
function stoppedWhileWaiting(args: readonly string[], signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; waited: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DICERIG, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let waited = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => {
      stderr += c;
      if (!waited && /asking again in/.test(stderr)) {
        waited = true;
        child.kill(signal);
      }
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code, sig) => resolve({ code, signal: sig, stderr, waited }));
  });
}

/**
 * A campaign `name` of one die on two rigs, whose die rig 1 (store `prefix`rig1.db) took and holds in a batch it
 * left open when stopped: rig 2 then has nothing it can roll. Returns the fleet store's URL.
 */
async function heldByRig1(name: string, die: string, prefix: string): Promise<string> {
  const url = await server.createDatabase(`${name}_campaign`);
  const box = writeBox(dir, [die]);
  expect((await cliHere(['campaign', 'create', name, '--dice', box, '--rigs', '2', '--channels', '1', '--rolls', '30', '--db', url])).code).toBe(0);
  const rig1 = join(dir, `${prefix}rig1.db`);
  const held = await rigHostStoppedAt(['campaign', 'run', name, '--rig', '1', '--fleet', url, '--db', rig1, '--host', 'hostX', '--config', slowRig(dir)], rig1, 3, ['SIGINT']);
  expect(held.code, held.stderr).toBe(130);
  return url;
}

it('says it held no batch and what to run again, and exits 130, when stopped while its dice are in another rig', async () => {
  const url = await heldByRig1('w', 'D1', '');
  const rig2 = join(dir, 'rig2.db');
  const r = await stoppedWhileWaiting(['campaign', 'run', 'w', '--rig', '2', '--fleet', url, '--db', rig2, '--host', 'hostY', '--poll', '600000'], 'SIGTERM');
  expect(r.waited, r.stderr).toBe(true);
  expect(r.signal, r.stderr).toBeNull();
  expect(r.code, r.stderr).toBe(130);
  expect(r.stderr).toMatch(/Rig 2: stopped while waiting for dice \(SIGTERM\); it held no batch, so nothing is left open\. To go on: dicerig campaign run w --rig 2 --fleet \S+ --db \S*rig2\.db/);
}, 240_000);

it('asks again after --poll ms with run --campaign as with campaign run, and refuses --poll without --campaign', async () => {
  const url = await heldByRig1('p', 'P1', 'p-');
  const r = await stoppedWhileWaiting(['run', '--campaign', 'p', '--rig', '2', '--fleet', url, '--db', join(dir, 'p-rig2.db'), '--host', 'hostY', '--poll', '600000'], 'SIGINT');
  expect(r.waited, r.stderr).toBe(true);
  expect(r.code, r.stderr).toBe(130);
  expect(r.stderr).toMatch(/Rig 2: 1 die due here is in other rigs now; asking again in 600000 ms\./);
  const alone = await cliHere(['run', slowRig(dir), '--poll', '100', '--db', join(dir, 'p-alone.db')]);
  expect(alone.code).toBe(1);
  expect(alone.stderr).toMatch(/--poll .* goes with --campaign NAME --rig ID --fleet postgres:\/\/URL/);
}, 240_000);
