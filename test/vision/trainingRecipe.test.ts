import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// The shipped X-Wing modules name the recipe that made them; a clean checkout must be able to start it. The run is cut
// short on purpose (no renders in RENDERS), after the guards that judge the modules in src and before any training.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function startRecipe(env: Record<string, string>): { status: number | null; stderr: string } {
  const renders = mkdtempSync(join(tmpdir(), 'dicerig-renders-'));
  const work = mkdtempSync(join(tmpdir(), 'dicerig-work-'));
  dirs.push(renders, work);
  const run = spawnSync('bash', ['training/learned/train-xwing.sh'], { env: { ...process.env, RENDERS: renders, WORK: work, ...env }, encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('the X-Wing training recipe', () => {
  it('accepts the face networks this checkout ships when the shipped recipe keeps them (on centred crops), and stops only for the missing renders', () => {
    const run = startRecipe({ KEEP_FACES: '1', LEAN_ON_DIE: '1', CENTRED: '1' });
    expect(run.stderr).not.toMatch(/KEEP_FACES=1 keeps/);
    expect(run.stderr).toContain(`train-xwing/labels/classes.txt`);
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
    expect(run.stderr).toContain(`train-xwing/labels/classes.txt`);
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
    expect(run.stderr).toContain(`train-xwing/labels/classes.txt`);
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
});
