import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

/** One line on stderr, short, with no stack trace and no raw control character. */
function oneClearLine(err: string, maxLength = 1000): void {
  expect(err).not.toMatch(/\n\s+at /);
  expect(err).not.toMatch(/unexpected failure/);
  expect(err.trim().split('\n')).toHaveLength(1);
  expect(err.length).toBeLessThan(maxLength);
  // eslint-disable-next-line no-control-regex
  expect(err.trimEnd()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
}

function file(name: string, text: string | Buffer): string {
  const path = join(tempDir('dicerig-hostile-'), name);
  writeFileSync(path, text);
  return path;
}

const ALIAS_BOMB = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`)].join('\n');

describe('hostile session configs and dice files', () => {
  it('a YAML alias bomb in a session config is one clear line', async () => {
    const r = await runCli('run', file('bomb.yaml', `${ALIAS_BOMB}\ndice: []\n`), '--db', join(tempDir(), 'r.db'));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toMatch(/alias/);
  });

  it('a config over the size cap is refused before parsing, and nothing is created', async () => {
    const big = `dice:\n  - { label: A, type: d6 }\nrig: { driver: sim }\n# ${'x'.repeat(2 << 20)}\n`;
    const dir = tempDir();
    const r = await runCli('run', file('big.yaml', big), '--db', join(dir, 'r.db'));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toMatch(/too large/);
  });

  it('a config with 20,000 keys is refused for its unknown keys in one line', async () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `  k${i}: 1`).join('\n');
    // Before: the yaml library's duplicate-key check, quadratic in a map's size, took over 10 s on 20,000 keys (past the test timeout).
    const r = await runCli('run', file('keys.yaml', `dice:\n  - { label: A, type: d6 }\nrig: { driver: sim }\nextra:\n${keys}\n`), '--db', join(tempDir(), 'r.db'));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
  });

  it('a duplicate key in a config is still refused', async () => {
    const r = await runCli('run', file('dup.yaml', 'dice:\n  - { label: A, type: d6 }\nrig: { driver: sim }\nseed: 1\nseed: 2\n'), '--db', join(tempDir(), 'r.db'));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toMatch(/seed/);
  });

  it('serve --config takes the same guards: an alias bomb, a file over the size cap and a duplicate key are each one clear line', async () => {
    const session = 'dice:\n  - { label: A, type: red }\nrig: { driver: sim }\n';
    const cases: [string, string, RegExp][] = [
      ['bomb.yaml', `${ALIAS_BOMB}\n${session}`, /alias/],
      ['big.yaml', `${session}# ${'x'.repeat(2 << 20)}\n`, /too large/],
      ['dup.yaml', `${session}server:\n  port: 9000\n  port: 9001\n`, /port/],
    ];
    for (const [name, text, says] of cases) {
      const r = await runCli('serve', '--config', file(name, text), '--db', join(tempDir(), 'r.db'), '--port', '0');
      expect(r.code, name).toBe(1);
      oneClearLine(r.err);
      expect(r.err).toMatch(says);
    }
  });

  it('a dice file with an alias bomb, or over the size cap, is one clear line', async () => {
    const log = file('rolls.csv', 'die,type,face\nA,d6,3\n');
    const bomb = await runCli('analyze', log, '--dice-file', file('dice.yaml', ALIAS_BOMB));
    expect(bomb.code).toBe(1);
    oneClearLine(bomb.err);
    const big = await runCli('analyze', log, '--dice-file', file('big.yaml', `# ${'y'.repeat(2 << 20)}\n`));
    expect(big.code).toBe(1);
    oneClearLine(big.err);
    expect(big.err).toMatch(/too large/);
  });

  it('a 300-character die label in a session config is refused', async () => {
    const r = await runCli('run', file('long.yaml', `dice:\n  - { label: ${'L'.repeat(300)}, type: d6 }\nrig: { driver: sim }\n`), '--db', join(tempDir(), 'r.db'));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toMatch(/at most 200 characters/);
  });
});

describe('hostile roll logs', () => {
  it('a 5 MB token is quoted shortened, with its length', async () => {
    const r = await runCli('analyze', file('token.csv', `die,type,face\nA,d6,${'z'.repeat(5_000_000)}\n`));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toMatch(/zzz…" \(5,000,000 characters\)/);
  });

  it('control characters in a bad value are escaped, never written raw', async () => {
    const r = await runCli('analyze', file('garbage.csv', Buffer.from('die,type,face\nA,d6,\x1b[2J\x07\x00\rX\n', 'latin1')));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toContain('\\u001b[2J\\u0007\\u0000\\rX');
  });

  it('a header of binary garbage is escaped and shortened', async () => {
    const r = await runCli('analyze', file('header.csv', Buffer.concat([Buffer.from('\x1b]0;pwned\x07,'), Buffer.alloc(100_000, 0x41), Buffer.from('\nx,y\n')])));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
  });

  it('200,000 distinct unknown faces stop after the first few, with a count', async () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => `A,d6,f${i}`).join('\n');
    const r = await runCli('analyze', file('faces.csv', `die,type,face\n${rows}\n`));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toMatch(/more than \d+ distinct/);
  });

  it('a 300-character die label in a roll log is refused', async () => {
    const r = await runCli('analyze', file('label.csv', `die,type,face\n${'L'.repeat(300)},d6,3\n`));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toMatch(/at most 200 characters/);
  });
});

describe('labels and names the store takes', () => {
  it('a 300-character session name for an import is refused, and nothing is stored', async () => {
    const log = file('rolls.csv', 'die,type,face\nA,d6,3\n');
    const db = join(tempDir(), 'r.db');
    const r = await runCli('import', log, '--db', db, '--session-name', 'N'.repeat(300));
    expect(r.code).toBe(1);
    oneClearLine(r.err);
    expect(r.err).toMatch(/at most 200 characters/);
  });
});
