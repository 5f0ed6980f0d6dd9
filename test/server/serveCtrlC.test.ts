/**
 * Ctrl-C twice on `dicerig serve` as a user runs it (bin/dicerig.js in a
 * process of its own, the simulated rig on the real clock): the second one
 * quits at once and says what it leaves behind, which the store confirms.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { DICERIG } from '../support/builtCli.js';
import { API_TOKEN } from './support/testServer.js';

/** Resolves with the first match of `pattern` in what `read()` returns, looking again on each chunk. */
function until(stream: NodeJS.ReadableStream, read: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const look = (): void => {
      const m = pattern.exec(read());
      if (m) {
        stream.off('data', look);
        resolve(m);
      }
    };
    stream.on('data', look);
    stream.once('end', () => reject(new Error(`ended without ${String(pattern)}: ${read()}`)));
    look();
  });
}

describe('a second Ctrl-C on serve', () => {
  it('quits at once with exit status 130, saying that the throw under way is not stored and which sessions stay marked running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicerig-ctrlc-'));
    const db = join(dir, 'rolls.db');
    const child = spawn(process.execPath, [DICERIG, 'serve', '--sim', '--seed', '1', '--port', '0', '--db', db], { env: { ...process.env, DICERIG_TOKEN: API_TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => void (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => void (err += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const url = (await until(child.stdout, () => out, /roll API {4}POST (http:\/\/\S+)\/api\/rolls/))[1] as string;
    const headers = { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' };
    const posted = (await (await fetch(`${url}/api/rolls`, { method: 'POST', headers, body: JSON.stringify({ dice: '30 red' }) })).json()) as { id: string };
    // Once the roll is rolling, its stream session exists: both sessions are then open.
    for (let i = 0; i < 200; i++) {
      const view = (await (await fetch(`${url}/api/rolls/${posted.id}`, { headers })).json()) as { state: string };
      if (view.state === 'rolling') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    await until(child.stderr, () => err, /Stopping: finishing the current throw/);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(err.trim().split('\n').at(-1)).toBe(
      `Stopping at once: the throw under way (roll ${posted.id}: 30 red) is not stored (a throw is stored whole or not at all) and callers still waiting get no answer; ` +
        'sessions 1 (fairness) and 2 (stream) stay marked running in the roll store (serve starts new sessions and never reopens them; `dicerig run CONFIG --resume 1` continues the fairness one).',
    );
    const store = RollStore.open(db, { mustExist: true });
    try {
      expect([store.getSession(1)?.state, store.getSession(2)?.state]).toEqual(['running', 'running']);
    } finally {
      store.close();
    }
  }, 60_000);
});
