// A Firmata rig's settings (StandardFirmata keeps none on the board) are the session config's `rig.firmata` block,
// by our firmware's names, checked with the ranges the Firmata driver accepts.
import { describe, expect, it } from 'vitest';
import { parseSessionConfig } from '../../src/session/config.js';
import { configProblem } from './support/configProblem.js';

const config = (rig: string): string => `dice:
  - { label: A, type: d6 }
rig:
${rig}
`;


describe('a Firmata rig in the session config', () => {
  it('takes its settings under rig.firmata, by the firmware’s names', () => {
    const c = parseSessionConfig(
      config('  driver: emulated-firmata\n  firmata: { flip_us: 2350, rest_us: 560, flip_ms: 700, jam_ma: 1200, jam_ms: 80, home_ms: 2500, rig: bench-2, baud: 115200 }'),
      'run.yaml',
    );
    expect(c.rig.firmata).toEqual({ flip_us: 2350, rest_us: 560, flip_ms: 700, jam_ma: 1200, jam_ms: 80, home_ms: 2500, rig: 'bench-2', baud: 115200 });
  });

  it('names the key, the range and the line of a value the driver cannot use (500 µs is below the 544 StandardFirmata needs)', () => {
    expect(configProblem(config('  driver: firmata\n  firmata:\n    rest_us: 500')).message).toBe(
      'run.yaml: config key "rig.firmata.rest_us": must be a whole number from 544 to 2500 (line 6)',
    );
    expect(configProblem(config('  driver: firmata\n  firmata: { rig: two words }')).message).toMatch(/"rig\.firmata\.rig": must be 1 to 16 letters/);
    expect(configProblem(config('  driver: firmata\n  firmata: { baud: 56000 }')).message).toMatch(/"rig\.firmata\.baud": must be one of .*57600/);
    expect(configProblem(config('  driver: firmata\n  firmata: { flip: 2350 }')).message).toMatch(/"rig\.firmata\.flip": is not a setting here/);
  });

  it('refuses rig.firmata for a rig running dicerig’s firmware, saying where its settings live', () => {
    expect(configProblem(config('  driver: serial\n  firmata: { flip_us: 2350 }')).message).toMatch(
      /"rig\.firmata": applies to the firmata and emulated-firmata rigs only, not "serial": .*keeps its settings in the board \(npx tsx scripts\/hardware\/rigConfig\.ts/,
    );
  });
});
