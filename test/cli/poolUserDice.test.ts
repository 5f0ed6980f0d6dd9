import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';
import { SKULL6_DIE } from '../support/userDice.js';

const SKULL6 = SKULL6_DIE;

/** The rows of pool's balance table: its header line and the first word of each row. */
function balance(out: string): { header: string; rows: string[] } {
  const lines = out.split('\n');
  const at = lines.indexOf('Balance of the pool (spread of the observed rates across its dice):');
  const table = lines.slice(at + 1, lines.indexOf('', at + 1) === -1 ? undefined : lines.indexOf('', at + 1));
  return { header: (table[0] ?? '').trim().split(/\s+/)[0] ?? '', rows: table.slice(1).map((l) => l.trim().split(/\s+/)[0] ?? '') };
}

describe('pool of dice of the user\'s own', () => {
  it("names the balance table's rows by the session's own die, with no dice file at hand, and heads the column by the level", async () => {
    const dir = tempDir('dicerig-pool-user-');
    mkdirSync(join(dir, 'dice'));
    writeFileSync(join(dir, 'dice', 'mine.yaml'), SKULL6);
    const config = join(dir, 'run.yaml');
    writeFileSync(config, 'diceFile: dice/mine.yaml\nseed: 3\ndice:\n  - { label: A, type: skull6 }\n  - { label: B, type: skull6 }\nrig: { driver: sim }\nstopping: { budgetRolls: 40 }\n');
    const db = join(dir, 'r.db');
    const run = await runCli('run', config, '--db', db, '--plain');
    expect(run.code, run.err).toBe(0);
    const bySymbol = await runCli('pool', '1', '--db', db, '--size', '2');
    expect(bySymbol.code, bySymbol.err).toBe(0);
    expect(balance(bySymbol.out)).toEqual({ header: 'symbol', rows: ['skull', 'shield', 'blank', 'crit'] });
    const byFace = await runCli('pool', '1', '--db', db, '--size', '2', '--level', 'face');
    expect(byFace.code, byFace.err).toBe(0);
    expect(balance(byFace.out)).toEqual({ header: 'face', rows: ['1', '2', '3', '4', '5', '6'] });
  }, 60_000);
});
