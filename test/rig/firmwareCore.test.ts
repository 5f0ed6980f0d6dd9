import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { crc16 } from '../../src/rig/protocol/crc16.js';
import { buildFirmware } from './support/build.js';

let coreTest = '';

beforeAll(() => {
  coreTest = join(buildFirmware(), 'build', 'core_test');
});

describe('the firmware protocol core compiled for the host', () => {
  it('passes its own C unit test (parser, retransmit cache, no motion before identify, dead-man, jam, limit, home, stepper, config and its ranges)', () => {
    const run = spawnSync(coreTest, [], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/\d+ checks, 0 failed/);
    expect(run.status).toBe(0);
  });

  it('computes the same CRC-16 as the host for the standard check string and protocol lines', () => {
    const samples = ['123456789', '', '1 identify', '65535 light 255', '! boot fw=0.1.0 proto=1', 'x'.repeat(90), '~ !*'];
    const out = execFileSync(coreTest, ['crc', ...samples], { encoding: 'utf8' }).trim().split('\n');
    const fromC = out.map((h) => parseInt(h, 16));
    expect(fromC).toEqual(samples.map((s) => crc16(s)));
    expect(fromC[0]).toBe(0x29b1); // CRC-16/CCITT-FALSE check value
  });
});
