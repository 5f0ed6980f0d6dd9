// Firmware settings are checked on the host against the table the firmware is built from, so a bad one is refused
// before it is sent, naming the key, the value and what the firmware takes (the board itself only says bad_argument).
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import { RigConfigError } from '../../src/rig/errors.js';
import { settingProblem, settingProblems } from '../../src/rig/protocol/configCheck.js';
import { CONFIG_SETTINGS } from '../../src/rig/protocol/configSettings.js';
import { SerialRigDriver } from '../../src/rig/serial/serialDriver.js';
import { clockTimers } from '../../src/rig/timers.js';
import { ScriptedBoard } from './support/scriptedBoard.js';

let driver: SerialRigDriver | undefined;

afterEach(async () => {
  await driver?.close();
  driver = undefined;
});

describe('checking firmware settings on the host', () => {
  it('takes every number setting at both ends of its range and refuses one step outside, naming key, value and range', () => {
    for (const s of CONFIG_SETTINGS) {
      if (s.kind !== 'number') continue;
      expect(settingProblem(s.key, String(s.min))).toBeUndefined();
      expect(settingProblem(s.key, String(s.max))).toBeUndefined();
      expect(settingProblem(s.key, String(s.max + 1))).toMatch(new RegExp(`^${s.key}=${s.max + 1} is out of range: ${s.key} takes ${s.min}\\.\\.${s.max}`));
      if (s.min > 0) expect(settingProblem(s.key, String(s.min - 1))).toMatch(/is out of range/);
    }
    expect(settingProblem('step_rate', '0')).toBe('step_rate=0 is out of range: step_rate takes 1..5000 steps/s');
  });

  it('refuses what the firmware cannot read as a whole number, a word it does not know, a bad rig id and an unknown key', () => {
    expect(settingProblem('steps', '-5')).toBe('steps=-5 is not a whole number: steps takes 1..20000');
    expect(settingProblem('flip_ms', '600.5')).toMatch(/^flip_ms=600\.5 is not a whole number/);
    expect(settingProblem('tumbler', 'belt')).toBe('tumbler=belt is not a choice it has: tumbler takes servo or stepper');
    expect(settingProblem('rig', 'bad!id')).toBe('rig=bad!id is not a rig id: rig takes 1 to 16 of A-Za-z0-9_-');
    expect(settingProblem('rig', 'a'.repeat(17))).toMatch(/is not a rig id/);
    expect(settingProblem('rig', 'bench_2-b')).toBeUndefined();
    expect(settingProblem('stepp', '3')).toMatch(/^"stepp" is not a firmware setting \(they are tumbler, deadman, .*, rig\)$/);
    expect(settingProblems({ tumbler: 'stepper', steps: 400, step_rate: 120 })).toEqual([]);
  });

  it('refuses bad settings in the serial driver before sending anything, with a RigConfigError naming the key and value', async () => {
    const clock = new SimulatedClock();
    const board = new ScriptedBoard(clock);
    driver = new SerialRigDriver({ path: '/virtual/ttyACM0', clock: clockTimers(clock), openLink: board.openLink, listPorts: async () => [], reconnect: false, idleHeartbeatMs: 0 });
    await driver.connect();
    const configsBefore = board.linesOf('config').length;
    const err = await driver.configure({ tumbler: 'stepper', step_rate: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RigConfigError);
    expect((err as Error).message).toBe('Not sent to the board on /virtual/ttyACM0: step_rate=0 is out of range: step_rate takes 1..5000 steps/s. Nothing was changed.');
    expect((err as RigConfigError).rig).toMatchObject({ port: '/virtual/ttyACM0', command: 'config', key: 'step_rate', value: '0' });
    expect(board.linesOf('config')).toHaveLength(configsBefore);
  });
});
