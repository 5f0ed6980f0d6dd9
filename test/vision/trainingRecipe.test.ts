import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRenderRequest } from '../../src/camera/render3d/renderRequest.js';

// The shipped X-Wing modules name the recipe that made them; a clean checkout must be able to start it. The run is cut
// short on purpose (no renders in RENDERS), after the guards that judge the modules in src and before any training.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function startRecipe(env: Record<string, string>, renders = mkdtempSync(join(tmpdir(), 'dicerig-renders-'))): { status: number | null; stdout: string; stderr: string } {
  const work = mkdtempSync(join(tmpdir(), 'dicerig-work-'));
  dirs.push(renders, work);
  const run = spawnSync('bash', ['training/learned/train-xwing.sh'], { env: { ...process.env, RENDERS: renders, WORK: work, ...env }, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The sets a run of the recipe with `env` reads, as it lists them. */
function setsRead(env: Record<string, string>): string[] {
  const run = startRecipe({ ...env, LIST_SETS: '1' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim().split(' ');
}

function renderScript(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('bash', ['training/learned/render-xwing.sh', ...args], { env: { ...process.env, RENDERS: join(tmpdir(), 'dicerig-no-renders') }, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const SHIPPED_FACES = { CENTRED: '1' };
const SHIPPED_CHECK = { KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1' };

describe('the X-Wing training recipe', () => {
  it('accepts the face networks this checkout ships when the shipped recipe keeps them (on centred crops), and stops only for the missing renders', () => {
    const run = startRecipe({ KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1' });
    expect(run.stderr).not.toMatch(/KEEP_FACES=1 keeps/);
    expect(run.stderr).toContain('these rendered sets are not whole');
    expect(run.status).not.toBe(0);
  });

  it('refuses to set thresholds for the shipped face networks, trained on centred crops, on crops cut another way', () => {
    const run = startRecipe({ KEEP_FACES: '1', LEAN_ON_DIE: '1' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('trained on centred crops: CENTRED=1 is needed');
  });

  it('refuses to keep face networks from a module that is not one of them, naming the module', () => {
    const run = startRecipe({ KEEP_FACES: '1', LEAN_ON_DIE: '1', FACE_FROM: 'src/vision/learned/weights/d6.ts' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('src/vision/learned/weights/d6.ts is not');
  });

  it('trains the check on the low-lean renders only in the shipped recipe, and then stops only for the missing renders', () => {
    const refusedEnvs: Record<string, string>[] = [{ LOW_LEAN: '1' }, { LOW_LEAN: '1', KEEP_FACES: '1', LEAN_ON_DIE: '1' }, { LOW_LEAN: '1', KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1', TONE: '1' }, { LOW_LEAN: 'yes' }];
    for (const env of refusedEnvs) {
      const refused = startRecipe(env);
      expect(refused.status, JSON.stringify(env)).toBe(2);
      expect(refused.stderr).toContain(`LOW_LEAN=${env.LOW_LEAN}: 1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1 and TONE=0`);
    }
    const run = startRecipe({ KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1', LOW_LEAN: '1' });
    expect(run.stderr).not.toMatch(/LOW_LEAN=|KEEP_FACES=1 keeps/);
    expect(run.stderr).toContain('these rendered sets are not whole');
    expect(run.status).not.toBe(0);
  });

  it('trains a wider check only in the shipped recipe, from another seed only when it keeps the face networks, and then stops only for the missing renders', () => {
    const refused: [Record<string, string>, string][] = [
      [{ WIDE_CHECK: '1' }, 'WIDE_CHECK=1: 1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0, LOW_LEAN=0, HIDE_TOP=0 and OFF_AXIS=0'],
      [{ ...SHIPPED_CHECK, WIDE_CHECK: '1', OFF_AXIS: '1' }, 'WIDE_CHECK=1: 1 (only beside'],
      [{ ...SHIPPED_CHECK, WIDE_CHECK: '2' }, 'WIDE_CHECK=2: 1 (only beside'],
      [{ ...SHIPPED_FACES, CHECK_SEED: '2' }, "CHECK_SEED=2: the cocked check's training seed"],
      [{ ...SHIPPED_CHECK, CHECK_SEED: '0' }, "CHECK_SEED=0: the cocked check's training seed"],
    ];
    for (const [env, message] of refused) {
      const run = startRecipe(env);
      expect(run.status, JSON.stringify(env)).toBe(2);
      expect(run.stderr, JSON.stringify(env)).toContain(message);
    }
    for (const env of [{ ...SHIPPED_CHECK, WIDE_CHECK: '1' }, { ...SHIPPED_CHECK, WIDE_CHECK: '1', CHECK_SEED: '2' }]) {
      const run = startRecipe(env);
      expect(run.stderr, JSON.stringify(env)).not.toMatch(/WIDE_CHECK=|CHECK_SEED=|KEEP_FACES=1 keeps/);
      expect(run.stderr).toContain('these rendered sets are not whole');
      expect(run.status).not.toBe(0);
    }
  });

  it('trains the check on dice lying on cloths of their own colour only in the shipped recipe, and then stops only for the missing renders', () => {
    const refused: Record<string, string>[] = [{ BAIZE: '1' }, { ...SHIPPED_CHECK, BAIZE: '1', WIDE_CHECK: '1' }, { ...SHIPPED_CHECK, BAIZE: '1', LOW_LEAN: '1' }, { ...SHIPPED_CHECK, BAIZE: 'yes' }];
    for (const env of refused) {
      const run = startRecipe(env);
      expect(run.status, JSON.stringify(env)).toBe(2);
      expect(run.stderr, JSON.stringify(env)).toContain(`BAIZE=${env.BAIZE}: 1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0, LOW_LEAN=0, HIDE_TOP=0, OFF_AXIS=0 and WIDE_CHECK=0`);
    }
    const run = startRecipe({ ...SHIPPED_CHECK, BAIZE: '1' });
    expect(run.stderr).not.toMatch(/BAIZE=|KEEP_FACES=1 keeps/);
    expect(run.stderr).toContain('these rendered sets are not whole');
    expect(run.status).not.toBe(0);
  });

  it("trains the cloths' check from two seeds read by their mean, but two seeds beside the dice leaning on dice only with the cloths", () => {
    const refused: [Record<string, string>, string][] = [
      [{ ...SHIPPED_CHECK, CHECK_PAIR: '1' }, 'LEAN_ON_DIE=1: 1 (with KEEP_FACES=1, CHECK_PX=32, MORE_CHECK_RANDOM=0, and CHECK_PAIR=0 unless BAIZE=1)'],
      [{ ...SHIPPED_CHECK, BAIZE: '1', CHECK_PAIR: '1', CHECK_SEED: '2' }, "CHECK_SEED=2: the cocked check's training seed"],
    ];
    for (const [env, message] of refused) {
      const run = startRecipe(env);
      expect(run.status, JSON.stringify(env)).toBe(2);
      expect(run.stderr, JSON.stringify(env)).toContain(message);
    }
    const run = startRecipe({ ...SHIPPED_CHECK, BAIZE: '1', CHECK_PAIR: '1' });
    expect(run.stderr).not.toMatch(/BAIZE=|CHECK_PAIR=|LEAN_ON_DIE=|KEEP_FACES=1 keeps/);
    expect(run.stderr).toContain('these rendered sets are not whole');
    expect(run.status).not.toBe(0);
  });

  it("hides the top face's middle from the check only in the shipped recipe, and then stops only for the missing renders", () => {
    const refusedEnvs: Record<string, string>[] = [{ HIDE_TOP: '1' }, { HIDE_TOP: '1', KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1', LOW_LEAN: '1' }, { HIDE_TOP: '1', KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1', TONE: '1' }, { HIDE_TOP: 'yes' }];
    for (const env of refusedEnvs) {
      const refused = startRecipe(env);
      expect(refused.status, JSON.stringify(env)).toBe(2);
      expect(refused.stderr).toContain(`HIDE_TOP=${env.HIDE_TOP}: 1 or 2 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0 and LOW_LEAN=0`);
    }
    const run = startRecipe({ KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1', HIDE_TOP: '1' });
    expect(run.stderr).not.toMatch(/HIDE_TOP=|KEEP_FACES=1 keeps/);
    expect(run.stderr).toContain('these rendered sets are not whole');
    expect(run.status).not.toBe(0);
  });

  it('refuses the tone curve on crops cut around their middle, naming what it needs', () => {
    const run = startRecipe({ TONE: '1' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('TONE=1: 1 (with CENTRED=1)');
  });

  it('refuses to set thresholds with the tone curve for face networks trained without it', () => {
    const run = startRecipe({ KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1', TONE: '1', FACE_FROM: 'src/vision/learned/weights/xwing.ts' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('trained without the tone curve: TONE=0 is needed');
  });

  it('lists the sets each run reads: the leaning-on-dice renders for the check, the low-lean and baize ones only when asked for', () => {
    const faces = setsRead(SHIPPED_FACES);
    const check = setsRead(SHIPPED_CHECK);
    expect(faces).toContain('train-xwing-rnd5601');
    expect(faces).not.toContain('train-xwing-8001');
    expect(check).toEqual(expect.arrayContaining(['train-xwing-8001', 'train-xwing-rnd8301', 'tune-xwing-151']));
    expect(check).not.toContain('train-xwing-low9601');
    expect(setsRead({ ...SHIPPED_CHECK, LOW_LEAN: '1' })).toEqual(expect.arrayContaining(['train-xwing-low9601', 'train-xwing-rndlow9901']));
    expect(check).not.toContain('train-xwing-baize15001');
    expect(setsRead({ ...SHIPPED_CHECK, BAIZE: '1' })).toEqual(expect.arrayContaining(['train-xwing-baize15001', 'train-xwing-rndbaize15301', ...check]));
    expect(new Set(check).size).toBe(check.length);
  });

  it('stops before any work when a set it reads is not whole, naming only the missing ones and the command that renders them', () => {
    const renders = mkdtempSync(join(tmpdir(), 'dicerig-renders-'));
    const sets = setsRead(SHIPPED_CHECK);
    const [missing, partial] = ['train-xwing-3196', 'train-xwing-rnd8301'];
    for (const set of sets.filter((s) => s !== missing)) {
      mkdirSync(join(renders, set), { recursive: true });
      if (set !== partial) writeFileSync(join(renders, set, 'READY'), '');
    }
    const run = startRecipe(SHIPPED_CHECK, renders);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`these rendered sets are not whole in ${renders} (no READY): ${missing} ${partial}\n`);
    expect(run.stderr).toContain(`RENDERS=${renders} bash training/learned/render-xwing.sh ${missing} ${partial}\n`);
  });

  it('knows how to render every set the runs this checkout can start read, each with options the render script accepts', () => {
    const listed = renderScript('--list');
    expect(listed.status, listed.stderr).toBe(0);
    const options = new Map(listed.stdout.trim().split('\n').map((line) => line.split('\t') as [string, string]));
    const envs: Record<string, string>[] = [{ RANDOM_ART: '0' }, SHIPPED_FACES, { MORE_RANDOM: '1', KEEP_COCKED: '0' }, { ...SHIPPED_CHECK, LOW_LEAN: '1' }, { ...SHIPPED_CHECK, BAIZE: '1' }];
    const read = new Set(envs.flatMap(setsRead));
    expect([...read].filter((s) => !options.has(s))).toEqual([]);
    for (const [name, opts] of options) {
      const request = parseRenderRequest(['--dice', 'xwing', ...opts.split(' '), '--out', name]);
      // The name says the split (dev sets are tune seeds) and the artwork (f2, f3: foreign; rnd: random; else house).
      expect(request.split, name).toBe(/^(tune|dev)/.test(name) ? 'tune' : name.startsWith('test-') ? 'test' : 'train');
      expect(request.art, name).toBe(name.includes('rnd') ? 'random' : name.includes('-f2') ? 'foreign-2' : name.includes('-f3') ? 'foreign-3' : 'house');
      // And the platforms: baize sets lie on the cloths of the dice's colours, every other set on its split's own.
      expect(request.platforms, name).toEqual(name.includes('baize') ? ['green-baize', 'red-baize'] : undefined);
    }
  });

  it('refuses to render a set it does not know, naming it and where the known ones are listed', () => {
    const run = renderScript('train-xwing', 'test-xwing-f2-s99');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("no set named 'test-xwing-f2-s99'");
    expect(run.stderr).toContain('render-xwing.sh --list');
  });
});
