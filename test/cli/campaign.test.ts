import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBox } from '../../src/analysis/campaign/box.js';
import { allDice } from '../../src/dice/catalogue.js';
import { runCli } from './runCli.js';

const tmp = mkdtempSync(join(tmpdir(), 'dicerig-campaign-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// No server listens here: each refusal below comes before the fleet store is opened.
const NOWHERE = `postgres:///none?host=${encodeURIComponent(join(tmp, 'no-socket'))}`;

describe('dicerig campaign, refusals in one line', () => {
  it('names the file, line and problem of a bad dice box, before touching the fleet store', async () => {
    const box = join(tmp, 'box.csv');
    writeFileSync(box, 'label,die\nA1,d6\nA2,d9\n');
    const r = await runCli('campaign', 'create', 'c', '--dice', box, '--rigs', '3', '--db', NOWHERE);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${box}, line 3, column "die": "d9" is not a known die type; known dice are: red, green, d6, d3, direction (a die of your own: give its dice file with --dice-file)\n`);
  });

  it('refuses a fleet store that is not a postgres:// URL and a rotation one rig cannot give', async () => {
    const box = join(tmp, 'ok.csv');
    writeFileSync(box, 'label,die\nA1,d6\n');
    expect((await runCli('campaign', 'create', 'c', '--dice', box, '--rigs', '3', '--db', 'fleet.db')).err).toBe('dicerig: --db must be a postgres:// URL of the fleet store, not "fleet.db"\n');
    expect((await runCli('campaign', 'create', 'c', '--dice', box, '--rigs', '1', '--rotate', '--db', NOWHERE)).err).toMatch(/^dicerig: --rotate needs at least two rigs/);
    expect((await runCli('campaign', 'run', 'c', '--rig', '1', '--fleet', NOWHERE, '--sim-rig-bias', 'six')).err).toMatch(/^dicerig: --sim-rig-bias "six": expected SYMBOL=EXCESS/);
  });

  it('says run --campaign needs a rig and a fleet store, run without a config needs --campaign, and --host needs --fleet and --rig --campaign', async () => {
    expect((await runCli('run', '--campaign', 'c')).err).toBe('dicerig: --campaign needs --rig ID and --fleet postgres://URL\n');
    expect((await runCli('run')).err).toBe('dicerig: run needs a session config file (or --resume SESSION to continue a stored session with its stored config, or --campaign NAME --rig ID --fleet URL)\n');
    expect((await runCli('run', 'examples/sessions/sim-d6.yaml', '--host', 'bench-1')).err).toBe('dicerig: --host names this rig host in the fleet store: it goes with --fleet postgres://URL\n');
    // --rig firmata reads as a choice of driver: it used to be ignored, the session running on its config's simulated rig.
    const rig = await runCli('run', 'examples/sessions/sim-d6.yaml', '--rig', 'firmata', '--db', join(tmp, 'rig-flag.db'));
    expect(rig.code).toBe(1);
    expect(rig.err).toBe("dicerig: --rig names this rig in a campaign: it goes with --campaign NAME --fleet postgres://URL. A session runs on its config's rig: set rig.driver (serial, emulated, sim, firmata, emulated-firmata) in the config\n");
    expect(existsSync(join(tmp, 'rig-flag.db'))).toBe(false);
  });

  it('refuses a campaign name that is empty, blank, holds a control character or blanks around it, before reading the box', async () => {
    const refused = async (name: string): Promise<string> => {
      const r = await runCli('campaign', 'create', name, '--dice', join(tmp, 'missing.csv'), '--rigs', '2', '--db', NOWHERE);
      expect(r.code).toBe(1);
      return r.err;
    };
    expect(await refused('')).toBe('dicerig: a campaign needs a name to be run and reported by; the name given is empty\n');
    expect(await refused('   ')).toBe('dicerig: a campaign needs a name to be run and reported by; "   " is only blanks\n');
    expect(await refused('x\ny')).toBe('dicerig: the campaign name "x\\ny" holds a control character (a line break, tab or terminal code), which would garble every line that shows it; choose a name of letters, digits, spaces and punctuation\n');
    expect(await refused('box\u001b[31m')).toMatch(/^dicerig: the campaign name "box\\u001b\[31m" holds a control character/);
    expect(await refused(' box1')).toBe('dicerig: the campaign name " box1" starts or ends with a blank; give it without ("box1")\n');
    expect(await refused('b'.repeat(101))).toBe('dicerig: the campaign name is 101 characters long; a name is at most 100\n');
  });

  it('refuses --legs where each die stays on one rig, rather than planning without it', async () => {
    const box = join(tmp, 'legs.csv');
    writeFileSync(box, 'label,die\nA1,d6\n');
    expect((await runCli('campaign', 'create', 'c', '--dice', box, '--rigs', '3', '--no-rotate', '--legs', '2', '--db', NOWHERE)).err).toBe(
      'dicerig: --legs 2 sets how many rigs each die visits when rotating, but --no-rotate keeps each die on one rig: give one or the other\n',
    );
    expect((await runCli('campaign', 'create', 'c', '--dice', box, '--rigs', '1', '--legs', '2', '--db', NOWHERE)).err).toBe(
      'dicerig: --legs 2 sets how many rigs each die visits when rotating, and with one rig there is no rotating: give --rigs 2 or more\n',
    );
  });

  it('says a roll log given as the dice box looks like one, and points at the example box', async () => {
    const r = await runCli('campaign', 'create', 'c', '--dice', 'examples/xwing-rolls.csv', '--rigs', '2', '--db', NOWHERE);
    expect(r.err).toBe(
      'dicerig: examples/xwing-rolls.csv, line 1: the header must name the columns "label" and "die" (found: throw, die, type, face): this looks like a roll log (one row per roll), not a dice box; a box lists each die once, with its label and die type (see examples/campaign-box.csv)\n',
    );
  });

  it('says where the fleet store cannot be reached, in one line', async () => {
    const box = join(tmp, 'ok2.csv');
    writeFileSync(box, 'label,die\nA1,d6\nA2,d6\n');
    const r = await runCli('campaign', 'create', 'c', '--dice', box, '--rigs', '2', '--db', NOWHERE);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: Cannot reach the fleet store .* check that PostgreSQL is running/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});

describe('the example dice box', () => {
  it('is a valid box of D6 and X-Wing dice', () => {
    const file = fileURLToPath(new URL('../../examples/campaign-box.csv', import.meta.url));
    const box = parseBox(readFileSync(file, 'utf8'), file, allDice().map((d) => d.id));
    expect(box.map((d) => d.die)).toEqual(['d6', 'd6', 'd6', 'd6', 'd6', 'd6', 'red', 'red', 'green', 'green']);
  });
});
