import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigProblems } from '../../src/core/errors.js';
import { configDieTypes, loadSessionConfig, parseSessionConfig, withPathsFrom } from '../../src/session/config.js';
import { demoConfig, loadedChannel } from '../../src/session/demo.js';
import { configProblem } from './support/configProblem.js';

const examples = fileURLToPath(new URL('../../examples/sessions/', import.meta.url));


const minimal = `dice:
  - { label: A, type: d6 }
rig:
  driver: sim
`;

describe('session config', () => {
  it('reads every example in examples/sessions', async () => {
    const files = readdirSync(examples).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      const c = await loadSessionConfig(`${examples}${f}`);
      expect(c.dice.length, f).toBeGreaterThan(0);
    }
    // The reference tower's D6 example records the face on top of what its camera sees from below.
    expect((await loadSessionConfig(`${examples}rig-d6.yaml`)).camera).toMatchObject({ source: 'device', face: 'bottom' });
  });

  it('fills in the defaults: the simulated camera, detection of settling, a 3,000-roll budget', () => {
    const c = parseSessionConfig(minimal, 'run.yaml');
    expect(c.camera).toMatchObject({ source: 'sim', frames: 'rest', cockedRate: 0.02 });
    expect(c.settle).toMatchObject({ mode: 'detect', timeoutMs: 5000 });
    expect(c.stopping).toMatchObject({ alpha: 0.01, delta: 0.05, budgetRolls: 3000, maxConsecutiveFaults: 3 });
    expect(c.rig.light).toBe(200);
    expect(c.seed).toBe(1);
  });

  it('reads JSON as well as YAML', () => {
    const c = parseSessionConfig(JSON.stringify({ dice: [{ label: 'R', type: 'red' }], rig: { driver: 'emulated' } }), 'run.json');
    expect(c.rig.driver).toBe('emulated');
  });

  it('names the file, the key path and the line of a setting that does not exist', () => {
    const e = configProblem(`${minimal}stopping:\n  alpha: 0.01\n  budgetRols: 100\n`);
    expect(e.key).toBe('stopping.budgetRols');
    expect(e.message).toMatch(/^run\.yaml: config key "stopping\.budgetRols": is not a setting here \(line 7\)/);
  });

  it('reports every problem of a config at once, in file order, each with the file, its key and its line', () => {
    const text = [
      'dice:',
      '  - { label: A, type: d6 }',
      '  - { label: B, type: d7 }',
      '  - { label: A, type: d6 }',
      'rig:',
      '  driver: serail',
      '  light: 300',
      'stopping:',
      '  alpha: 2',
      '  budgetRolls: 0',
      '  budgetHours: -3',
      '',
    ].join('\n');
    const e = configProblem(text);
    expect(e).toBeInstanceOf(ConfigProblems);
    const lines = e.message.split('\n');
    expect(lines[0]).toBe('run.yaml has 7 problems:');
    expect(lines.slice(1).map((l) => /config key "([^"]+)".*\(line (\d+)\)$/.exec(l)?.slice(1).join(' @ '))).toEqual([
      'dice[1].type @ 3',
      'dice[2].label @ 4',
      'rig.driver @ 6',
      'rig.light @ 7',
      'stopping.alpha @ 9',
      'stopping.budgetRolls @ 10',
      'stopping.budgetHours @ 11',
    ]);
    expect(lines.slice(1).every((l) => l.startsWith('  run.yaml: config key '))).toBe(true);
    expect(lines[3]).toContain('there is no rig driver "serail"; choose one of serial, emulated, sim');
    expect((e as ConfigProblems).problems.map((p) => p.key)).toContain('dice[2].label');
  });

  it('names the file and the line of a rig driver that does not exist', () => {
    const e = configProblem('dice:\n  - { label: A, type: d6 }\nrig:\n  driver: serail\n');
    expect(e.message).toMatch(/^run\.yaml: config key "rig\.driver": there is no rig driver "serail"; choose one of .*\(line 4\)$/);
  });

  it('names an unknown die type with the known ones', () => {
    const e = configProblem('dice:\n  - { label: A, type: d7 }\nrig: { driver: sim }\n');
    expect(e.key).toBe('dice[0].type');
    expect(e.message).toMatch(/unknown die "d7"; known dice are: red, green, d6/);
    expect(e.message).toMatch(/line 2/);
  });

  it('refuses two dice with one label, a bad probability and an empty dice list', () => {
    expect(configProblem('dice:\n  - { label: A, type: d6 }\n  - { label: A, type: d6 }\nrig: { driver: sim }\n').key).toBe('dice[1].label');
    expect(configProblem(`${minimal}stopping: { alpha: 1.5 }\n`).key).toBe('stopping.alpha');
    expect(configProblem('dice: []\nrig: { driver: sim }\n').key).toBe('dice');
  });

  it('refuses a load on a die of a real camera and a load on a result the die does not show', () => {
    const real = configProblem('dice:\n  - { label: A, type: d6, simulatedLoad: { symbol: "6", factor: 1.5 } }\nrig: { driver: serial }\ncamera: { source: device, device: /dev/video0 }\n');
    expect(real.key).toBe('dice[0].simulatedLoad');
    const wrong = configProblem('dice:\n  - { label: A, type: red, simulatedLoad: { symbol: evade, factor: 1.5 } }\nrig: { driver: sim }\n');
    expect(wrong.key).toBe('dice[0].simulatedLoad.symbol');
  });

  it('takes a load as a symbol: a direction die\'s five-centre passes, a D3\'s face id is refused, a load past certainty is refused', () => {
    expect(parseSessionConfig('dice:\n  - { label: A, type: direction, simulatedLoad: { symbol: five-centre, factor: 1.5 } }\nrig: { driver: sim }\n', 'run.yaml').dice[0]?.simulatedLoad).toEqual({ symbol: 'five-centre', factor: 1.5 });
    const face = configProblem('dice:\n  - { label: A, type: d3, simulatedLoad: { symbol: "6", factor: 1.5 } }\nrig: { driver: sim }\n');
    expect(face.key).toBe('dice[0].simulatedLoad.symbol');
    expect(face.message).toMatch(/"6" is not a symbol of a d3 die \(1, 2, 3\) \(line 2\)/);
    const certain = configProblem('dice:\n  - { label: A, type: d3, simulatedLoad: { symbol: "3", factor: 3 } }\nrig: { driver: sim }\n');
    expect(certain.key).toBe('dice[0].simulatedLoad.factor');
    expect(certain.message).toMatch(/not a probability below 1/);
  });

  it('takes a rig bias as a symbol of every die: a direction die\'s five-centre passes, a D3\'s face 6 is refused, an excess past certainty is refused', () => {
    expect(parseSessionConfig('dice:\n  - { label: A, type: direction }\nrig: { driver: sim }\ncamera: { source: sim, rigBias: { symbol: five-centre, excess: 0.05 } }\n', 'run.yaml').camera).toMatchObject({ rigBias: { symbol: 'five-centre', excess: 0.05 } });
    const face = configProblem('dice:\n  - { label: A, type: d3 }\nrig: { driver: sim }\ncamera: { source: sim, rigBias: { symbol: "6", excess: 0.05 } }\n');
    expect(face.key).toBe('camera.rigBias.symbol');
    expect(face.message).toMatch(/"6" is not shown on a d3 die \(it shows 1, 2, 3\)/);
    const certain = configProblem('dice:\n  - { label: A, type: d3 }\nrig: { driver: sim }\ncamera: { source: sim, rigBias: { symbol: "3", excess: 0.7 } }\n');
    expect(certain.key).toBe('camera.rigBias.excess');
    // A mixed box: the symbol must be shown on every die the rig rolls.
    const mixed = configProblem('dice:\n  - { label: A, type: d6 }\n  - { label: B, type: red }\nrig: { driver: sim }\ncamera: { source: sim, rigBias: { symbol: "6", excess: 0.04 } }\n');
    expect(mixed.message).toMatch(/"6" is not shown on a red die/);
  });

  it('takes dice of the user\'s own from its dieTypes, and names a damaged one by its key rather than calling its dice unknown', () => {
    const claim = { id: 'claim', name: 'claim', faces: ['1', '2', '3', '4', '5', '6'].map((id) => ({ id, symbol: id })), symbols: ['1', '2', '3', '4', '5', '6'], faceProbabilities: [0.1, 0.1, 0.15, 0.15, 0.2, 0.3], opposite: { '1': '6', '6': '1', '2': '5', '5': '2', '3': '4', '4': '3' } };
    const text = (t: object) => `dieTypes: ${JSON.stringify([t])}\ndice:\n  - { label: A, type: claim, simulatedLoad: { symbol: "6", factor: 2 } }\nrig: { driver: sim }\n`;
    expect(configDieTypes(parseSessionConfig(text(claim), 'run.yaml'))[0]?.faceProbabilities).toEqual(claim.faceProbabilities);
    // Its 6 claims 0.3: loaded twice, past certainty.
    const e = configProblem(text(claim).replace('factor: 2', 'factor: 4'));
    expect(e.key).toBe('dice[0].simulatedLoad.factor');
    const damaged = configProblem(text({ ...claim, opposite: { '1': '6' } }));
    expect(damaged).toBeInstanceOf(ConfigProblems);
    expect(damaged.message).toMatch(/config key "dieTypes\[0\]\.opposite": face "2" has no opposite face/);
    expect(damaged.message).not.toMatch(/unknown die/);
  });

  it('refuses a simulated logo on a real camera, on a die without pips and on a face a D6 does not have', () => {
    const real = configProblem('dice:\n  - { label: A, type: d6, simulatedLogo: "6" }\nrig: { driver: serial }\ncamera: { source: device, device: /dev/video0 }\n');
    expect(real.key).toBe('dice[0].simulatedLogo');
    expect(real.message).toMatch(/only the simulated camera draws a logo on a die/);
    const red = configProblem('dice:\n  - { label: A, type: d6 }\n  - { label: B, type: red, simulatedLogo: "1" }\nrig: { driver: sim }\n');
    expect(red.key).toBe('dice[1].simulatedLogo');
    expect(red.message).toMatch(/a red die has none/);
    const seven = configProblem('dice:\n  - { label: A, type: d6, simulatedLogo: "7" }\nrig: { driver: sim }\n');
    expect(seven.key).toBe('dice[0].simulatedLogo');
    expect(seven.message).toMatch(/"1" to "6"/);
    expect(parseSessionConfig('dice:\n  - { label: A, type: d3, simulatedLogo: "6" }\nrig: { driver: sim }\n', 'run.yaml').dice[0]?.simulatedLogo).toBe('6');
  });

  it('says so when the file is missing or is not YAML', async () => {
    await expect(loadSessionConfig('/nonexistent/run.yaml')).rejects.toThrow(/^\/nonexistent\/run.yaml: cannot read the session config: the file does not exist/);
    // The file as a whole is at fault: no key is named (it used to say config key "(file)").
    expect(configProblem('dice: [\n').message).toMatch(/^run.yaml: not valid YAML or JSON: /);
  });
});

describe('the demo config', () => {
  it('has four dice of which exactly one is loaded 1.5x, chosen by the seed, at alpha 0.001', () => {
    const seen = new Set<number>();
    for (let seed = 1; seed <= 12; seed++) {
      const c = demoConfig({ seed, dice: 'd6', emulated: false, budget: 500 });
      expect(c.dice).toHaveLength(4);
      const loaded = c.dice.filter((d) => d.simulatedLoad !== undefined);
      expect(loaded).toHaveLength(1);
      expect(loaded[0]?.simulatedLoad).toEqual({ symbol: '6', factor: 1.5 });
      expect(c.dice.indexOf(loaded[0] as (typeof c.dice)[number])).toBe(loadedChannel(seed));
      seen.add(loadedChannel(seed));
      expect(c.stopping).toMatchObject({ alpha: 0.001, budgetRolls: 500 });
      expect(c.rig.driver).toBe('sim');
    }
    expect(seen.size).toBeGreaterThan(1);
    const x = demoConfig({ seed: 5, dice: 'xwing', emulated: true, budget: 20 });
    expect(x.rig.driver).toBe('emulated');
    expect(x.camera).toMatchObject({ frames: 'all' });
    expect(x.dice.map((d) => d.type)).toEqual(['red', 'red', 'green', 'green']);
  });
});

describe('paths in a config file', () => {
  it('are relative to the file\'s folder', async () => {
    const c = await loadSessionConfig(`${examples}rig-xwing.yaml`);
    expect(c.calibration).toBe(`${examples}my-rig.json`);
    const parsed = parseSessionConfig('dice: [{ label: A, type: d6 }]\nrig: { driver: sim }\ndb: rolls/x.db\n', 'x.yaml');
    expect(withPathsFrom('/data/runs', parsed).db).toBe('/data/runs/rolls/x.db');
  });
});
