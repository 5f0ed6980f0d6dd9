/**
 * A campaign of dice of the user's own, on a real PostgreSQL server: the box's definitions are kept with the campaign
 * when it is created, so its rig hosts roll, and its report and the fleet page judge, with no dice file at hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDice } from '../../src/dice/catalogue.js';
import { openFleet } from '../../src/fleet/connect.js';
import { readCampaignFindings } from '../../src/report/fleetCampaign.js';
import { listItem, SKULL6_DIE } from '../support/userDice.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { cli, cliHere } from './support/campaignCli.js';

let server: ScratchPostgres;
let dir: string;

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = mkdtempSync(join(tmpdir(), 'dicerig-campaign-own-'));
}, 120_000);

afterAll(async () => {
  await server?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** skull6: a D6 whose faces show game symbols (the simulated camera reads its pips); d3b: a D3 of the user's; skull: a die no reader reads. */
const DICE = `dice:
${listItem(SKULL6_DIE)}
  - id: d3b
    extends: d3
  - id: skull
    faces:
      - { id: s1, symbol: skull }
      - { id: s2, symbol: skull }
      - { id: b, symbol: blank }
      - { id: c, symbol: crit }
    opposite: { s1: s2, b: c }
`;

interface Report {
  verdicts: { label: string; kind: string; rolls: number }[];
  errorControl: unknown;
}

describe('a campaign of dice of the user\'s own', () => {
  it('refuses a box die no session can roll, keeps the definitions, and runs, reports and shows the box with no dice file at hand', async () => {
    const url = await server.createDatabase('own');
    const diceFile = join(dir, 'mine.yaml');
    writeFileSync(diceFile, DICE);
    const withSkull = join(dir, 'skull-box.csv');
    writeFileSync(withSkull, 'label,die\nC1,skull6\nC4,skull\n');
    const refused = await cliHere(['campaign', 'create', 'refused', '--dice', withSkull, '--rigs', '1', '--rolls', '30', '--db', url, '--dice-file', diceFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${withSkull}, line 3, column "die": die C4 is a "skull" die, which no session can roll: no reader can read a "skull" die (faces `);

    const box = join(dir, 'box.csv');
    writeFileSync(box, 'label,die\nC1,skull6\nC2,skull6\nC3,d3b\n');
    const created = await cliHere(['campaign', 'create', 'own', '--dice', box, '--rigs', '1', '--channels', '3', '--rolls', '30', '--db', url, '--dice-file', diceFile]);
    expect(created.code, created.stderr).toBe(0);
    // The file changed after: the campaign keeps what it was created with (crit renamed).
    writeFileSync(diceFile, DICE.replace('{ id: "6", symbol: crit }', '{ id: "6", symbol: critical }'));

    const ran = await cli(['campaign', 'run', 'own', '--rig', '1', '--fleet', url, '--db', join(dir, 'rig1.db'), '--poll', '200', '--json']);
    expect(ran.code, ran.stderr).toBe(0);

    const report = await cliHere(['campaign', 'report', 'own', '--db', url, '--json']);
    expect(report.code, report.stderr).toBe(0);
    const found = JSON.parse(report.stdout) as Report;
    expect(found.verdicts.map((v) => [v.label, v.rolls])).toEqual([
      ['C1', 30],
      ['C2', 30],
      ['C3', 30],
    ]);
    const changed = await cliHere(['campaign', 'report', 'own', '--db', url, '--dice-file', diceFile, '--json']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toContain(`dicerig: note: ${diceFile} defines die "skull6" otherwise than campaign own keeps it: the campaign's dice are judged by the definition it was created with.`);
    expect((JSON.parse(changed.stdout) as Report).verdicts).toEqual(found.verdicts);

    // The fleet page reads it with the built-in dice only, as it has no dice file: the campaign's own come with it.
    const fleet = await openFleet(url);
    try {
      const page = await readCampaignFindings(fleet, url, 'own', allDice());
      expect(page.unknownTypes).toEqual([]);
      expect(page.analysis.types.map((t) => t.die)).toEqual(['skull6', 'd3b']);
    } finally {
      await fleet.close();
    }
  }, 300_000);
});
