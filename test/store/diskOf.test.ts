import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diskOf, formatBytes, mountOf, parseMounts } from '../../src/store/diskOf.js';
import { StoreError } from '../../src/store/errors.js';
import { storeFailure } from '../../src/store/openStore.js';
import { tempDir } from './support/fixtures.js';

const MOUNTS = `/dev/sda1 / ext4 rw,relatime 0 0
tmpfs /tmp tmpfs rw,nosuid 0 0
/dev/sdb1 /media/rig\\040data ext4 ro,relatime 0 0
/dev/sdc1 /media/rig ext4 rw 0 0
`;

/** An error as better-sqlite3 raises it (its own class, so the store tells it from any other). */
function sqliteError(message: string, code: string): Error {
  const { SqliteError } = createRequire(import.meta.url)('better-sqlite3') as { SqliteError: new (m: string, c: string) => Error };
  return new SqliteError(message, code);
}

describe('the disk a file is on', () => {
  it('reads the mount table, its escaped spaces and whether a mount is read-only', () => {
    const mounts = parseMounts(MOUNTS);
    expect(mounts.map((m) => m.mountPoint)).toEqual(['/', '/tmp', '/media/rig data', '/media/rig']);
    expect(mountOf('/media/rig data/rolls', mounts)).toMatchObject({ mountPoint: '/media/rig data', options: ['ro', 'relatime'] });
    // A mount point is a whole path component: /media/rig does not hold /media/rigs.
    expect(mountOf('/media/rig/x', mounts)?.mountPoint).toBe('/media/rig');
    expect(mountOf('/media/rigs', mounts)?.mountPoint).toBe('/');
  });

  it('names the mount and the free space of a folder that exists, for a store file not made yet', () => {
    const dir = tempDir();
    const disk = diskOf(join(dir, 'not-yet', 'rolls.db'), [{ mountPoint: '/', type: 'ext4', options: ['rw'] }]);
    expect(disk).toMatchObject({ mountPoint: '/', readOnly: false });
    expect(disk.freeBytes).toBeGreaterThanOrEqual(0);
  });

  it('says sizes as a person reads them', () => {
    expect([0, 512, 12 * 1024, 3.4 * 1024 ** 2, 1.25 * 1024 ** 3].map(formatBytes)).toEqual(['0 B', '512 B', '12 KiB', '3.4 MiB', '1.3 GiB']);
  });
});

describe('a store whose disk is full', () => {
  it('names the store file and its disk, keeps what was committed and says how to continue the session', () => {
    const db = join(tempDir(), 'rolls.db');
    const e = storeFailure(sqliteError('database or disk is full', 'SQLITE_FULL'), db, true, { resume: `dicerig run --resume 3 --db ${db}` });
    expect(e).toBeInstanceOf(StoreError);
    expect((e as Error).message).toMatch(new RegExp(`^The disk holding the roll store ${db} is full \\(the file system mounted at /[^,]*, [\\d.]+ [KMGT]?i?B free\\): `));
    expect((e as Error).message).toMatch(/: the throw being stored was not, and every throw committed before it is kept\. Free some space on it, then continue with dicerig run --resume 3 --db .*rolls\.db\.$/);
    expect((e as StoreError).where).toMatchObject({ db, reason: 'disk-full' });
  });

  it('says the same when an evidence picture, written beside the store before its throw, finds the disk full', () => {
    const db = join(tempDir(), 'rolls.db');
    const nospace = Object.assign(new Error(`ENOSPC: no space left on device, open '${db}/../evidence/t9-c1-cocked.png'`), { code: 'ENOSPC', syscall: 'open' });
    const e = storeFailure(nospace, db, true, { resume: 'dicerig run --resume 3' });
    expect((e as Error).message).toMatch(/^The disk holding the roll store .*rolls\.db is full .*every throw committed before it is kept\. Free some space on it, then continue with dicerig run --resume 3\.$/);
  });

  it('opened when the disk is full, says so without a session to continue', () => {
    const e = storeFailure(sqliteError('database or disk is full', 'SQLITE_FULL'), join(tempDir(), 'rolls.db'), true);
    expect((e as Error).message).toMatch(/is full .*: nothing more was written\. Free some space on it and try again\.$/);
  });
});
