import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { tamper, tempDir } from '../store/support/fixtures.js';
import { SKULL6_DIE, listItem } from '../support/userDice.js';
import { runCli } from './runCli.js';

/** skull6 (faces of d6's ids, symbols of its own, no values); pips6 (faces renamed, no values); ace6 (one value of its own). */
const DICE = `dice:
${listItem(SKULL6_DIE)}
  - id: pips6
    extends: d6
    faces: [{ id: one, symbol: a }, { id: two, symbol: b }, { id: three, symbol: c }, { id: four, symbol: d }, { id: five, symbol: e }, { id: six, symbol: f }]
    opposite: { one: six, two: five, three: four }
  - id: ace6
    extends: d6
    faces: [{ id: "1", symbol: ace, value: 11 }, { id: "2", symbol: "2" }, { id: "3", symbol: "3" }, { id: "4", symbol: "4" }, { id: "5", symbol: "5" }, { id: "6", symbol: "6" }]
`;

interface DieJson {
  faces: { id: string; value?: number }[];
}

async function diceJson(file: string): Promise<Record<string, DieJson>> {
  const r = await runCli('dice', '--file', file, '--json');
  expect(r.code, r.err).toBe(0);
  return Object.fromEntries((JSON.parse(r.out) as { dice: (DieJson & { id: string })[] }).dice.map((d) => [d.id, d]));
}

describe('a die of your own that extends d6', () => {
  it("keeps d6's face values unless it gives its own, faces renamed or not", async () => {
    const dir = tempDir('dicerig-extends-values-');
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, DICE);
    const dice = await diceJson(file);
    expect(dice.skull6?.faces.map((f) => f.value)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(dice.pips6?.faces.map((f) => [f.id, f.value])).toEqual([['one', 1], ['two', 2], ['three', 3], ['four', 4], ['five', 5], ['six', 6]]);
    expect(dice.ace6?.faces.map((f) => f.value)).toEqual([11, 2, 3, 4, 5, 6]);
    const text = await runCli('dice', '--file', file, 'skull6');
    expect(text.out).toMatch(/^face +symbol +value +probability +opposite$/m);
    expect(text.out).toMatch(/^6 +crit +6 +1\/6 +1$/m);
  });

  it('keeps the values in the definitions a session stores, and resumes a session stored before they were kept', async () => {
    const dir = tempDir('dicerig-extends-values-run-');
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, DICE);
    const config = join(dir, 'run.yaml');
    writeFileSync(config, 'seed: 3\ndiceFile: mine.yaml\ndice:\n  - { label: S1, type: skull6 }\nrig: { driver: sim }\nstopping: { budgetRolls: 6 }\n');
    const db = join(dir, 'r.db');
    const run = await runCli('run', config, '--db', db, '--plain');
    expect(run.code, run.err).toBe(0);
    const stored = (): { faces: { value?: number }[] }[] => {
      const store = RollStore.open(db, { mustExist: true });
      try {
        return (JSON.parse(store.getSession(1)?.configJson ?? '{}') as { dieTypes: { faces: { value?: number }[] }[] }).dieTypes;
      } finally {
        store.close();
      }
    };
    expect(stored()[0]?.faces.map((f) => f.value)).toEqual([1, 2, 3, 4, 5, 6]);
    // As an earlier dicerig stored it: no values. The same file is still the same die.
    tamper(db, (sql) => {
      const row = sql.prepare<{ config: string }>('SELECT config_json AS config FROM sessions WHERE id = 1').get() as { config: string };
      const c = JSON.parse(row.config) as { dieTypes: { faces: { value?: number }[] }[] };
      for (const f of c.dieTypes[0]?.faces ?? []) delete f.value;
      sql.prepare('UPDATE sessions SET config_json = ? WHERE id = 1').run(JSON.stringify(c));
    });
    expect(stored()[0]?.faces.some((f) => f.value !== undefined)).toBe(false);
    const resumed = await runCli('run', config, '--resume', '1', '--db', db, '--more-rolls', '2', '--plain');
    expect(resumed.code, resumed.err).toBe(0);
  });
});
