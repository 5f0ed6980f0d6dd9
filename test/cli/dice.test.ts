import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/dice/custom-d6.yaml', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'dicerig-dice-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (...argv: string[]) => runCli(...argv);

interface DieJson {
  id: string;
  source: string;
  symbols: { symbol: string; probability: { exact?: string; decimal: number } }[];
  faces: { id: string; symbol: string; value?: number; probability: { exact?: string; decimal: number }; opposite: string }[];
  notes?: string;
}

describe('dicerig dice', () => {
  it('lists the built-in dice with faces, symbols, probabilities and opposites', async () => {
    const { out, code } = await run('dice');
    expect(code).toBe(0);
    for (const id of ['red', 'green', 'd6', 'd3', 'direction']) expect(out).toMatch(new RegExp(`^${id}: .*\\(built-in\\)$`, 'm'));
    expect(out).toMatch(/^symbols: hit 3\/8, crit 1\/8, focus 1\/4, blank 1\/4$/m);
    expect(out).toMatch(/^crit\s+crit\s+1\/8\s+blank-2$/m);
    expect(out).toMatch(/^symbols: 1 1\/3, 2 1\/3, 3 1\/3$/m);
  });

  it('lists user dice and layout overrides from a YAML file, as JSON', async () => {
    const { out, code } = await run('dice', '--file', EXAMPLE, '--json');
    expect(code).toBe(0);
    const { dice } = JSON.parse(out) as { dice: DieJson[] };
    expect(dice.map((d) => `${d.id}:${d.source}`)).toEqual(['red:override', 'green:built-in', 'd6:built-in', 'd3:built-in', 'direction:built-in', 'casino-d6:user', 'odd-even:user']);
    const casino = dice.find((d) => d.id === 'casino-d6');
    expect(casino?.faces[0]).toEqual({ id: '1', symbol: '1', value: 1, probability: { exact: '7/40', decimal: 0.175 }, opposite: '6' });
    expect(dice[0]?.faces.find((f) => f.id === 'crit')?.opposite).toBe('focus-2');
    expect(dice[0]?.notes).toBe('Layout measured on our own set of red dice.');
  });

  it('shows one die by id, including a user-defined one', async () => {
    const { out } = await run('dice', 'odd-even', '--file', EXAMPLE);
    expect(out).toMatch(/^odd-even: D6 read as odd or even \(from .*custom-d6\.yaml\)$/m);
    expect(out).toMatch(/^symbols: odd 1\/2, even 1\/2$/m);
    expect(out.match(/^\S+: /gm)?.filter((l) => !['symbols: ', 'notes: '].includes(l))).toHaveLength(1);
  });

  it('reports an unknown die id with the known ids', async () => {
    const { err, code } = await run('dice', 'blue');
    expect(code).toBe(1);
    expect(err).toBe('dicerig: unknown die "blue"; known dice are: red, green, d6, d3, direction.\n');
  });

  it('reports a missing file and a broken definition with file, line and key path', async () => {
    const missing = await run('dice', '--file', join(tmp, 'nope.yaml'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope\.yaml: cannot read the dice file: no such file/);
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify({ dice: [{ id: 'x', faces: [{ id: 'a', symbol: 's', probability: '1/2' }, { id: 'b', symbol: 's', probability: '1/3' }], opposite: { a: 'b' } }] }, null, 2));
    const broken = await run('dice', '--file', bad);
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/bad\.json, line 5: dice\[0\]\.faces: face probabilities sum to 5\/6 \(0\.8333333333333334\), not 1/);
  });

  it('refuses, before reading any log, a dice file with a face of probability 0 or a die of one symbol, naming file, line, die and key', async () => {
    const log = join(tmp, 'coin.csv');
    writeFileSync(log, 'die,type,face\nC,coin,heads\nC,coin,tails\n');
    const zero = join(tmp, 'zero.yaml');
    writeFileSync(zero, 'id: coin\nfaces:\n  - { id: heads, symbol: H, probability: 1 }\n  - { id: tails, symbol: T, probability: 0 }\nopposite: { heads: tails }\n');
    const one = join(tmp, 'one.yaml');
    writeFileSync(one, 'id: coin\nfaces:\n  - { id: heads, symbol: H }\n  - { id: tails, symbol: H }\nopposite: { heads: tails }\n');
    for (const args of [['dice', '--file'], ['analyze', log, '--dice-file']]) {
      const z = await run(...args, zero);
      expect(z.code).toBe(1);
      expect(z.out).toBe('');
      expect(z.err).toBe(`dicerig: ${zero}, line 4: faces[1].probability: die "coin": face "tails" has probability 0; a face's probability must be greater than 0\n`);
      const o = await run(...args, one);
      expect(o.code).toBe(1);
      expect(o.err).toBe(`dicerig: ${one}, line 2: faces: die "coin": every face shows "H"; a die needs at least two distinct symbols\n`);
    }
  });

  it('names a die that extends d6 with odds of its own as such, in dice and in analyze, with none of the D6\'s notes', async () => {
    const file = join(tmp, 'claim.yaml');
    const probabilities = [0.1, 0.1, 0.15, 0.15, 0.2, 0.3];
    writeFileSync(file, `- id: loaded-claim\n  extends: d6\n  faces:\n${probabilities.map((p, i) => `    - { id: "${i + 1}", symbol: "${i + 1}", probability: ${p} }\n`).join('')}`);
    const listed = await run('dice', 'loaded-claim', '--file', file);
    expect(listed.out).toMatch(/^loaded-claim: loaded-claim \(extends d6\) \(from .*claim\.yaml\)$/m);
    expect(listed.out).not.toMatch(/notes:|sum to 7/);
    const log = join(tmp, 'claim.csv');
    writeFileSync(log, `die,type,face\n${Array.from({ length: 60 }, (_, i) => `Claim-A,loaded-claim,${1 + (i % 6)}`).join('\n')}\n`);
    expect((await run('analyze', log, '--dice-file', file)).out).toContain('Claim-A  (loaded-claim (extends d6), 60 rolls)');
  });

  it('has help text', async () => {
    const { out } = await run('dice', '--help');
    expect(out).toMatch(/Usage: dicerig dice \[options\] \[id\]/);
    expect(out).toContain('--file <path>');
  });
});
