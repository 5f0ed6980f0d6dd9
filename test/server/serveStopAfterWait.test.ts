/**
 * Stopping `dicerig serve` (bin/dicerig.js in a process of its own, as a user runs it) after it answered a roll its
 * caller waited for (`?wait=10`): the process ends once it has closed, not when that wait would have run out. A timer
 * left for each waited roll once held the stopped process open that long (the e2e serve test's restart waited some
 * 5 s on it). The chat route's wait (4 s) had the same timer; too short to tell apart here from a loaded machine's
 * roll and stop, it is not tested here.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DICERIG } from '../support/builtCli.js';
import { API_TOKEN } from './support/testServer.js';

describe('Ctrl-C on serve after waited rolls', () => {
  it('ends the process once the server has closed, before the wait of the caller it answered would have run out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicerig-stop-after-wait-'));
    const child = spawn(process.execPath, [DICERIG, 'serve', '--sim', '--seed', '1', '--port', '0', '--db', join(dir, 'rolls.db')], {
      env: { ...process.env, DICERIG_TOKEN: API_TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => void (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => void (out += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const look = (): void => {
        const m = /roll API {4}POST (http:\/\/\S+)\/api\/rolls/.exec(out);
        if (m && out.includes('Ctrl-C stops.')) resolve(m[1] as string);
      };
      child.stdout.on('data', look);
      child.once('close', () => reject(new Error(`serve ended before it was ready: ${out}`)));
    });
    const asked = Date.now();
    const headers = { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' };
    const api = (await (await fetch(`${url}/api/rolls?wait=10`, { method: 'POST', headers, body: JSON.stringify({ dice: '1 red' }) })).json()) as { state: string };
    expect(api.state).toBe('done');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(Date.now() - asked, out).toBeLessThan(10_000);
  }, 60_000);
});
