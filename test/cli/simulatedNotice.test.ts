import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storeWithSession, symbolOf, tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

const WORDS = 'SIMULATED rolls: not evidence about real dice';

const RED = ['hit-1', 'hit-2', 'hit-3', 'crit', 'focus-1', 'focus-2', 'blank-1', 'blank-2'];

/** A store of one finished session of 200 throws of two red dice (faces drawn at random, seeded), simulated or not, and where its exports go. */
function storeAndExports(simulated: boolean): { db: string; jsonl: string; bareCsv: string } {
  const dir = tempDir('dicerig-sim-notice-');
  const db = join(dir, 'rolls.db');
  const { store, session, dice } = storeWithSession(db, simulated);
  const reds = dice.filter((d) => d.typeId === 'red');
  // Rolls of their own: the same rolls in the same order under two names are one record counted twice (repeatedRolls.ts).
  let seed = simulated ? 7 : 11;
  const face = (): string => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return RED[Math.floor((seed / 2 ** 31) * 8)] as string;
  };
  for (let n = 1; n <= 200; n++) {
    const rolls = reds.map((d, i) => {
      const f = face();
      return { dieId: d.id, channel: i, faceId: f, symbol: symbolOf(f) };
    });
    store.recordThrow(session.id, { startedAt: n * 1000, endedAt: n * 1000 + 500, status: 'ok', rolls });
  }
  store.endSession(session.id, 1_800_000_000_000, 'finished');
  store.close();
  return { db, jsonl: join(dir, 'rolls.jsonl'), bareCsv: join(dir, 'rows.csv') };
}

async function exported(s: { db: string; jsonl: string; bareCsv: string }): Promise<void> {
  expect((await runCli('export', '1', '--db', s.db, '--out', s.jsonl)).code).toBe(0);
  const csv = (await runCli('export', '1', '--db', s.db)).out;
  // Its rows alone, as a CSV copied without the manifest: each row still says it is simulated.
  writeFileSync(s.bareCsv, csv.split('\n').filter((l) => !l.startsWith('#')).join('\n'));
}

describe('analyze and pool on simulated rolls', () => {
  it('say the rolls are simulated alike for a stored session, its export and its rows without the manifest', async () => {
    const s = storeAndExports(true);
    await exported(s);
    expect(readFileSync(s.bareCsv, 'utf8')).not.toContain('manifest');
    for (const args of [['1', '--db', s.db], [s.jsonl], [s.bareCsv]]) {
      const analyzed = await runCli('analyze', ...args);
      expect(analyzed.code, analyzed.err).toBe(0);
      expect(analyzed.out.split('\n')[1], args[0]).toBe(`${WORDS}.`);
      const json = JSON.parse((await runCli('analyze', ...args, '--json')).out) as { simulated?: { all: boolean } };
      expect(json.simulated?.all).toBe(true);
      const pooled = await runCli('pool', ...args, '--size', '1');
      expect(pooled.code, pooled.err).toBe(0);
      expect(pooled.out.split('\n')[0], args[0]).toContain(WORDS);
    }
  }, 60_000);

  it('names the simulated sources among real ones, and says nothing of it for real rolls alone', async () => {
    const sim = storeAndExports(true);
    const real = storeAndExports(false);
    await exported(sim);
    await exported(real);
    const mixed = await runCli('analyze', real.jsonl, sim.bareCsv);
    expect(mixed.code, mixed.err).toBe(0);
    expect(mixed.out.split('\n')[1]).toBe(`SIMULATED rolls from ${sim.bareCsv}: not evidence about real dice; the other sources' are real.`);
    for (const args of [['1', '--db', real.db], [real.jsonl], [real.bareCsv]]) {
      expect((await runCli('analyze', ...args)).out).not.toContain('SIMULATED');
      expect((await runCli('pool', ...args, '--size', '1')).out).not.toContain('SIMULATED');
    }
  }, 60_000);
});
