/**
 * The roll store's disk fills while serve runs: a roll's failure names the disk, a picture cut short is not left
 * behind, and stopping runs every step (the server closes and the process can end) and says what failed.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServeStopError } from '../../src/server/serveStopError.js';
import { folderEvidence } from '../../src/session/evidence.js';
import { startTestServer } from './support/testServer.js';

const root = process.getuid?.() === 0;
const { SqliteError } = createRequire(import.meta.url)('better-sqlite3') as { SqliteError: new (m: string, c: string) => Error };

describe('stopping serve when the roll store cannot end its sessions', () => {
  it('still closes the server and the store, then says which sessions stay marked running and why', async () => {
    const s = await startTestServer();
    expect((await s.api('POST', '/api/rolls?wait=10', { dice: '2 red' })).json.state).toBe('done');
    // What SQLite throws when the disk is full as a session is ended.
    s.opened.store.endSession = () => {
      throw new SqliteError('database or disk is full', 'SQLITE_FULL');
    };
    const stopped = await s.close().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(stopped).toBeInstanceOf(ServeStopError);
    expect((stopped as Error).message).toMatch(/^Stopped, but not cleanly: session \d+ stays marked running: The disk holding the roll store \S+ is full/);
    // The server closed all the same.
    await expect(fetch(`${s.url}/api/state`)).rejects.toThrow();
  }, 60_000);
});

describe.runIf(root)('an evidence picture written to a full disk', () => {
  it('is removed, not left truncated under the name the next picture would take', async () => {
    const mount = mkdtempSync(join(tmpdir(), 'dicerig-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]);
    try {
      const sink = folderEvidence(join(mount, 'evidence'), mount);
      // Noise does not compress: each picture is about 48 KiB, so the second one cannot fit.
      const data = new Uint8Array(128 * 128 * 3).map(() => Math.floor(Math.random() * 256));
      const image = { width: 128, height: 128, data };
      await sink.save(image, 't1-c0');
      await expect(sink.save(image, 't2-c0')).rejects.toThrow(/ENOSPC/);
      const left = readdirSync(join(mount, 'evidence'));
      expect(left).toEqual(['t1-c0.png']);
      expect(statSync(join(mount, 'evidence', 't1-c0.png')).size).toBeGreaterThan(0);
    } finally {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });
});
