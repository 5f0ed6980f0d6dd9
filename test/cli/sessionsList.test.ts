/**
 * `dicerig sessions` on a local roll store: a session whose run was killed is not shown as running on as if nothing
 * happened, and `--json` gives the rig by name, whole-millisecond times and the chain head.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../store/support/fixtures.js';
import { DICERIG } from '../support/builtCli.js';
import { runCli } from './runCli.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

interface Listed {
  id: number;
  state: string;
  rigId: string | null;
  startedAt: number;
  endedAt: number | null;
  headHash: string;
  process: { pid: number; host: string; liveness: string } | null;
}

async function listed(db: string): Promise<{ text: string; json: Listed[] }> {
  const text = await runCli('sessions', '--db', db);
  const json = await runCli('sessions', '--db', db, '--json');
  expect(text.code, text.err).toBe(0);
  expect(json.code, json.err).toBe(0);
  return { text: text.out, json: JSON.parse(json.out) as Listed[] };
}

describe('dicerig sessions', () => {
  it('shows a session whose run was killed as "running?" with its gone process and the resume command, in text and JSON', async () => {
    const dir = tempDir('dicerig-sessions-');
    const cfg = join(dir, 'sim.yaml');
    // Real time on the simulated rig: the run is still rolling when it is listed and killed.
    writeFileSync(cfg, 'seed: 4\nclock: system\ndice:\n  - { label: K1, type: d6 }\nrig:\n  driver: sim\n  sim: { timing: { flipMs: 60, settleMedianMs: 60, homeMinMs: 10, homeMaxMs: 20 } }\nstopping: { budgetRolls: 100000 }\n');
    const db = join(dir, 'rolls.db');
    const child = spawn(process.execPath, [DICERIG, 'run', cfg, '--db', db, '--events'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        if (out.split('\n').filter((l) => l.includes('"type":"throw"')).length >= 2) resolve();
      });
    });
    const pid = child.pid as number;

    const live = await listed(db);
    expect(live.text).toMatch(/^1 +running +\d+$/m);
    expect(live.json[0]?.process).toEqual({ pid, host: hostname(), liveness: 'alive', otherPidNamespace: false });

    child.kill('SIGKILL');
    await ended;
    const gone = await listed(db);
    expect(gone.text).toContain(`running? (its process ${pid} on this host is gone: resume it with dicerig run --resume 1 --db ${db})`);
    expect(gone.json[0]).toMatchObject({ state: 'running', process: { pid, host: hostname(), liveness: 'dead' } });
  }, 60_000);

  it('gives the rig by its name, whole-millisecond times (a simulated clock keeps fractions) and the chain head in --json', async () => {
    const dir = tempDir('dicerig-sessions-');
    const db = join(dir, 'demo.db');
    const demo = await runCli('demo', '--seed', '3', '--budget', '30', '--db', db, '--plain');
    expect(demo.code, demo.err).toBe(0);
    const [s] = (await listed(db)).json;
    expect(s?.rigId).toBe('sim-01');
    expect(Number.isInteger(s?.startedAt)).toBe(true);
    expect(Number.isInteger(s?.endedAt)).toBe(true);
    expect(s?.headHash).toMatch(/^[0-9a-f]{64}$/);
    expect(demo.out).toContain(`Chain head: ${s?.headHash}`);
    expect(s?.process).toBeNull();
  });
});
