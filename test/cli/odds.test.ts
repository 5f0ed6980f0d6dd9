import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

const run = (...argv: string[]) => runCli(...argv);

interface Exact {
  exact: string;
  decimal: number;
}

describe('dicerig odds', () => {
  it('prints the seed tables of average hits+crits and evades per number of dice', async () => {
    const { out, code } = await run('odds');
    expect(code).toBe(0);
    expect(out).toMatch(/^dice\s+none\s+focus\s+force\s+lock\s+focus\+lock$/m);
    expect(out).toMatch(/^2\s+1\s+1\.5\s+1\.4375\s+1\.5\s+1\.875$/m);
    expect(out).toMatch(/^8\s+4\s+6\s+4\.8999\s+6\s+7\.5$/m);
    expect(out).toMatch(/1\.86, an erratum/);
    expect(out).toMatch(/^1\s+0\.375\s+0\.625\s+0\.625$/m);
  });

  it('gives the seed tables as exact fractions in JSON', async () => {
    const { out } = await run('odds', '--json', '--max-dice', '7');
    const json = JSON.parse(out) as { attack: { rows: Record<string, Exact | number>[] }; defense: { rows: Record<string, Exact | number>[] } };
    expect(json.attack.rows).toHaveLength(7);
    expect(json.attack.rows.map((r) => (r['focus+lock'] as Exact).exact)).toEqual(['15/16', '15/8', '45/16', '15/4', '75/16', '45/8', '105/16']);
    expect((json.attack.rows[1]?.['focus+lock'] as Exact).decimal).toBe(1.875);
    expect((json.defense.rows[0]?.focus as Exact).exact).toBe('5/8');
  });

  it('prints uncanceled results and ship damage for an attack', async () => {
    const { out, code } = await run('odds', 'attack', '--red', '3', '--green', '2', '--attack-mod', 'focus', '--shields', '2', '--hull', '3');
    expect(code).toBe(0);
    expect(out).toMatch(/^3 red dice \(focus\) against 2 green dice \(none\)$/m);
    expect((await run('odds', 'attack', '--red', '1', '--green', '1')).out).toMatch(/^1 red die \(none\) against 1 green die \(none\)$/m);
    // Same values as the Python enumeration in test/unit/odds/xwing-combat.test.ts.
    expect(out).toMatch(/Expected shields lost = 2799\/2048 \(1\.3667\)/);
    expect(out).toMatch(/Expected facedown cards = 3125\/32768 \(0\.0954\), faceup cards = 2275\/32768 \(0\.0694\)/);
    expect(out).toMatch(/P\(destroyed\) = 0/);
    expect(out).toContain('Ship with 2 shields and 3 hull:');
    expect((await run('odds', 'attack', '--red', '1', '--shields', '1', '--hull', '1')).out).toContain('Ship with 1 shield and 1 hull:');
  });

  it('gives the attack distribution in JSON with exact fractions that sum to 1', async () => {
    const { out } = await run('odds', 'attack', '--red', '2', '--green', '2', '--attack-mod', 'focus', '--json');
    const json = JSON.parse(out) as { uncanceled: { hits: number; crits: number; probability: Exact }[]; damage: { damage: number; atLeast: Exact }[] };
    expect(json.uncanceled.find((r) => r.hits === 0 && r.crits === 0)?.probability.exact).toBe('379/1024');
    expect(json.uncanceled.reduce((a, r) => a + r.probability.decimal, 0)).toBeCloseTo(1, 12);
    expect(json.damage[0]?.atLeast.exact).toBe('1');
  });

  it('rejects bad numbers naming the option', async () => {
    for (const [args, option] of [
      [['--red', '-1'], '--red'],
      [['--red', 'x'], '--red'],
      [['--red', '2.5'], '--red'],
      [['--red', '2', '--green', 'lots'], '--green'],
      [['--red', '2', '--hull', '0'], '--hull'],
    ] as const) {
      const { err, code } = await run('odds', 'attack', ...args);
      expect(code, args.join(' ')).not.toBe(0);
      expect(err).toContain(`${option} must be a whole number`);
    }
  });

  it('rejects an unknown modifier, a missing --red, and shields without hull', async () => {
    expect((await run('odds', 'attack', '--red', '2', '--attack-mod', 'luck')).err).toMatch(/--attack-mod.*Allowed choices are none, focus, force, lock, focus\+lock/s);
    expect((await run('odds', 'attack')).err).toMatch(/required option '--red <n>' not specified/);
    const noHull = await run('odds', 'attack', '--red', '2', '--shields', '1');
    expect(noHull.code).not.toBe(0);
    expect(noHull.err).toMatch(/--shields needs --hull/);
  });

  it('prints T9A N+ tables, the D3 and 2D6/3D6 totals', async () => {
    const { out } = await run('odds', 't9a');
    expect(out).toMatch(/^4\+\s+0\.5\s+0\.75\s+0\.5833\s+0\.75\s+0\.9375\s+0\.25\s+0\.4375$/m);
    expect(out).toMatch(/D3 \(a D6 halved, rounded up\): 1: 1\/3, 2: 1\/3, 3: 1\/3/);
    expect(out).toMatch(/^3D6 total/m);
    expect(out).toMatch(/mean: 21\/2 \(10\.5\) \| 15869\/1296 \(12\.2446\) \| 11347\/1296 \(8\.7554\)/);
  });

  it('prints one T9A total with Maximised Roll in JSON', async () => {
    const { out } = await run('odds', 't9a', '--dice', '2', '--maximised', '1', '--json');
    const json = JSON.parse(out) as { totals: { dice: number; maximised: number; distribution: { total: number; probability: Exact }[] }[]; nPlus: Record<string, Exact | number>[] };
    expect(json.totals).toHaveLength(1);
    expect(json.totals[0]?.distribution.find((r) => r.total === 12)?.probability.exact).toBe('2/27');
    expect((json.nPlus[1]?.rerollFailures as Exact).exact).toBe('8/9');
    const tooMany = await run('odds', 't9a', '--dice', '12', '--maximised', '1');
    expect(tooMany.err).toMatch(/would roll 13 dice; at most 12/);
  });

  it('prints rugby pass odds for every range, obstructed adding a die', async () => {
    const { out } = await run('odds', 'rugby', '--attack', '3', '--obstructed');
    expect(out).toMatch(/^1\s+2\s+19\/32 \(0\.5938\)\s+71\/256 \(0\.2773\)\s+33\/256 \(0\.1289\)$/m);
    const json = JSON.parse((await run('odds', 'rugby', '--attack', '2', '--json')).out) as { ranges: { range: number; caught: Exact; fumble: Exact; interception: Exact }[] };
    // Values from the Python enumeration in test/unit/odds/xwing-combat.test.ts: unobstructed, every miss is a fumble.
    expect(json.ranges.map((r) => [r.caught.exact, r.fumble.exact, r.interception.exact])).toEqual([
      ['9/16', '7/16', '0'],
      ['105/256', '151/256', '0'],
      ['75/256', '181/256', '0'],
    ]);
    expect((await run('odds', 'rugby', '--attack', '1')).out).toMatch(/^X-Wing Rugby pass: 1 attack die \(none\)/m);
    expect((await run('odds', 'rugby', '--attack', '-2')).err).toContain('--attack must be a whole number');
  });

  it('prints no interception for an unobstructed pass, and says why', async () => {
    const { out } = await run('odds', 'rugby', '--attack', '3');
    expect(out).toMatch(/^1\s+1\s+47\/64 \(0\.7344\)\s+17\/64 \(0\.2656\)\s+0$/m);
    expect(out).toMatch(/^3\s+3\s+955\/2048 \(0\.4663\)\s+1093\/2048 \(0\.5337\)\s+0$/m);
    expect(out).toContain('nobody can intercept');
  });

  it('prints the fumble direction odds with the excluded directions rerolled', async () => {
    const { out } = await run('odds', 'rugby', '--attack', '2', '--excluded-directions', '5,1');
    expect(out).toContain('excluded: 1, 5');
    expect(out).toMatch(/^1\s+0$/m);
    expect(out).toMatch(/^2\s+1\/4 \(0\.25\)$/m);
    const json = JSON.parse((await run('odds', 'rugby', '--attack', '2', '--excluded-directions', '6', '--json')).out) as { fumbleDirections: { excluded: number[]; odds: { direction: number; probability: Exact }[] } };
    expect(json.fumbleDirections.excluded).toEqual([6]);
    expect(json.fumbleDirections.odds.map((d) => d.probability.exact)).toEqual(['1/5', '1/5', '1/5', '1/5', '1/5', '0']);
    expect((await run('odds', 'rugby', '--attack', '2', '--excluded-directions', '0')).err).toContain('"0" is not one');
    expect((await run('odds', 'rugby', '--attack', '2', '--excluded-directions', '1,2,3,4,5,6')).err).toContain('excludes all six directions');
  });

  it('has help text for every subcommand', async () => {
    for (const sub of ['attack', 't9a', 'rugby']) {
      const { out } = await run('odds', sub, '--help');
      expect(out, sub).toMatch(new RegExp(`Usage: dicerig odds ${sub} \\[options\\]`));
      expect(out, sub).toContain('--json');
    }
    const rugbyHelp = (await run('odds', 'rugby', '--help')).out;
    expect(rugbyHelp).toMatch(/Caught:\s+hits\s+\+\s+crits\s+>\s+evades/);
    expect(rugbyHelp).toMatch(/unobstructed\s+pass\s+is\s+never\s+intercepted/);
    expect((await run('odds', '--help')).out).toMatch(/attack \[options\]/);
  });
});
