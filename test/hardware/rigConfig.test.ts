import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = 'scripts/hardware/rigConfig.ts';

describe('scripts/hardware/rigConfig.ts (the stepper build sets its flip through it)', () => {
  it('changes the firmware settings on the emulated board and prints them back', async () => {
    const { stdout } = await run('node', ['--import', 'tsx', SCRIPT, '--rig', 'emulated', 'tumbler=stepper', 'steps=400', 'step_rate=120'], { timeout: 30_000 });
    const settings = stdout.trim().split('\n').at(-1) ?? '';
    expect(settings).toMatch(/\btumbler=stepper\b/);
    expect(settings).toMatch(/\bsteps=400\b/);
    expect(settings).toMatch(/\bstep_rate=120\b/);
  });

  it('refuses a value out of the firmware\'s range before opening a board, naming the key, the value and the range', async () => {
    const err = await run('node', ['--import', 'tsx', SCRIPT, '--port', '/dev/no-such-port', 'step_rate=0'], { timeout: 30_000 }).then(
      () => undefined,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr.trim()).toBe('rigConfig: step_rate=0 is out of range: step_rate takes 1..5000 steps/s; nothing was sent to the board');
  });

  it('refuses an argument that is not a setting, in one line', async () => {
    const err = await run('node', ['--import', 'tsx', SCRIPT, '--rig', 'emulated', 'step rate'], { timeout: 30_000 }).then(
      () => undefined,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr.trim()).toBe('rigConfig: not a setting: "step rate" (expected key=value, --rig NAME or --port PATH)');
  });

  it('says a StandardFirmata board keeps no settings, and where a Firmata rig\'s settings go instead', async () => {
    const err = await run('node', ['--import', 'tsx', SCRIPT, '--rig', 'firmata', 'flip_us=2350'], { timeout: 30_000 }).then(
      () => undefined,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr.trim()).toBe(
      'rigConfig: a StandardFirmata board keeps no settings, so there is nothing to change in it: put them in the session config under rig.firmata ' +
        '(rig: { driver: firmata, firmata: { flip_us: 2350 } }) and try them first with dicerig rig check --rig firmata --set flip_us=2350',
    );
  });
});
