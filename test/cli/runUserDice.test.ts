import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';
import { LOADED_CLAIM_DICE } from '../support/userDice.js';

/** A D6 of the user's own claiming its own odds, and a die no reader can read. */
const DICE = `${LOADED_CLAIM_DICE}  - id: scatter
    faces:
      - { id: hit-a, symbol: hit }
      - { id: hit-b, symbol: hit }
      - { id: arrow-1, symbol: arrow }
      - { id: arrow-2, symbol: arrow }
    opposite: { hit-a: hit-b, arrow-1: arrow-2 }
`;

function setUp(configText: string): { dir: string; db: string; config: string; diceFile: string } {
  const dir = tempDir('dicerig-user-dice-');
  const diceFile = join(dir, 'dice', 'mine.yaml');
  const config = join(dir, 'run.yaml');
  writeFileSync(config, configText);
  return { dir, db: join(dir, 'r.db'), config, diceFile };
}

function writeDice(file: string, text = DICE): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
}

const SESSION = 'seed: 3\ndice:\n  - { label: claim-A, type: loaded-claim }\nrig: { driver: sim }\nstopping: { budgetRolls: 8 }\n';

describe('a session of dice of the user\'s own', () => {
  it('reads its dice file (diceFile, relative to the config), keeps the definitions, and resumes, reports and analyzes with no file at hand', async () => {
    const { dir, db, config, diceFile } = setUp(`diceFile: dice/mine.yaml\n${SESSION}`);
    writeDice(diceFile);
    const run = await runCli('run', config, '--db', db, '--plain');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/claim-A +\(loaded-claim, channel 0, 8 rolls\)/);
    const store = RollStore.open(db, { mustExist: true });
    const stored = JSON.parse(store.getSession(1)?.configJson ?? '{}') as { diceFile?: string; dieTypes?: { id: string; faceProbabilities: number[] }[] };
    store.close();
    expect(stored.diceFile).toBe(diceFile);
    expect(stored.dieTypes?.map((t) => [t.id, t.faceProbabilities])).toEqual([['loaded-claim', [0.1, 0.1, 0.15, 0.15, 0.2, 0.3]]]);
    // The file gone: the session has what it needs.
    writeFileSync(diceFile, 'not: [a dice file\n');
    const more = await runCli('run', '--resume', '1', '--db', db, '--more-rolls', '4', '--plain');
    expect(more.code, more.err).toBe(0);
    expect(more.out).toMatch(/claim-A +\(loaded-claim, channel 0, 12 rolls\)/);
    const report = await runCli('report', '1', '--db', db, '--out', join(dir, 'report'));
    expect(report.code, report.err).toBe(0);
    expect(report.out).toMatch(/^ {2}claim-A +\S+ +12 /m);
    const analyze = await runCli('analyze', '1', '--db', db);
    expect(analyze.code, analyze.err).toBe(0);
    expect(analyze.out).toContain('claim-A  (Loaded claim, 12 rolls)');
    // Its export carries them too: analyze and import need no dice file either.
    const exported = join(dir, 'claim.jsonl');
    expect((await runCli('export', '1', '--db', db, '--format', 'jsonl', '--out', exported)).code).toBe(0);
    expect((await runCli('analyze', exported)).out).toContain('claim-A  (Loaded claim, 12 rolls)');
    const other = join(dir, 'other.db');
    const imported = await runCli('import', exported, '--db', other);
    expect(imported.code, imported.err).toBe(0);
    expect((await runCli('analyze', '1', '--db', other)).out).toContain('claim-A  (Loaded claim, 12 rolls)');
  });

  it('takes the dice file from run --dice-file, and prints the command to roll on with it', async () => {
    const { db, config, diceFile } = setUp(SESSION);
    writeDice(diceFile);
    const without = await runCli('run', config, '--db', db);
    expect(without.code).toBe(1);
    expect(without.err).toMatch(/config key "dice\[0\]\.type": unknown die "loaded-claim"; known dice are: red, green, d6, d3, direction \(a die of your own: give its dice file as diceFile, or run --dice-file\) \(line 3\)/);
    const r = await runCli('run', config, '--dice-file', diceFile, '--db', db, '--plain');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`Roll on: dicerig run ${config} --dice-file ${diceFile} --resume 1 --db ${db} --more-rolls`);
    const resume = await runCli('run', '--resume', '1', '--dice-file', diceFile, '--db', db);
    expect(resume.code).toBe(1);
    expect(resume.err).toMatch(/--dice-file defines the dice of a session config: a resumed session runs with the die definitions stored with it/);
  });

  it('refuses to resume with a dice file that now defines the die otherwise', async () => {
    const { db, config, diceFile } = setUp(`diceFile: dice/mine.yaml\n${SESSION}`);
    writeDice(diceFile);
    expect((await runCli('run', config, '--db', db, '--json')).code).toBe(0);
    writeDice(diceFile, DICE.replace('probability: 0.2 }', 'probability: 0.25 }').replace('probability: 0.3 }', 'probability: 0.25 }'));
    const r = await runCli('run', config, '--resume', '1', '--db', db);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `cannot resume session 1 with these dice: the session rolled claim-A as the loaded-claim die defined when it started, and the config's dice file ${diceFile} defines loaded-claim otherwise. Put the dice file back as it was when the session started, or resume without the config (dicerig run --resume 1 --db STORE, no config: the session rolls on with the definitions stored with it); a die defined otherwise is another die: roll it in a new session, under a new id.`,
    );
    // Without the config, it rolls on by the definitions it started with.
    const on = await runCli('run', '--resume', '1', '--db', db, '--more-rolls', '4', '--plain');
    expect(on.code, on.err).toBe(0);
  });

  it('refuses a die no reader can read when the config is read, naming what a session reads, before any store is made', async () => {
    const { db, config, diceFile } = setUp('diceFile: dice/mine.yaml\ndice:\n  - { label: S, type: scatter }\nrig: { driver: sim }\n');
    writeDice(diceFile);
    const r = await runCli('run', config, '--db', db);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `dicerig: ${config}: config key "dice[0].type": no reader can read a "scatter" die (faces hit-a, hit-b, arrow-1, arrow-2): a session reads D6-faced dice, whose six faces are "1" to "6" (d6, d3, direction, or a die of your own that extends d6), and X-Wing red and green dice (line 3)\n`,
    );
    expect(existsSync(db)).toBe(false);
  });

  it('checks a label given to a declined roll against the die\'s stored definition', async () => {
    const { db, config, diceFile } = setUp(`diceFile: dice/mine.yaml\n${SESSION.replace('rig: { driver: sim }', 'rig: { driver: sim }\ncamera: { source: sim, declines: { "6": 0.9 } }')}`);
    writeDice(diceFile);
    expect((await runCli('run', config, '--db', db, '--json')).code).toBe(0);
    const store = RollStore.open(db, { mustExist: true });
    try {
      const [roll] = store.unresolvedRolls(1);
      expect(roll).toBeDefined();
      const rollId = (roll as { rollId: number }).rollId;
      expect(() => store.reviewRoll(1, { rollId, faceId: '7', reviewer: 'ann', at: 1 })).toThrow(/A loaded-claim die has no face "7"/);
      expect(store.reviewRoll(1, { rollId, faceId: '6', reviewer: 'ann', at: 2 })).toMatchObject({ faceId: '6', symbol: '6' });
    } finally {
      store.close();
    }
  });
});
