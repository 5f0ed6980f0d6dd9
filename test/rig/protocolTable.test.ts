import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firmwareDir } from '../../src/rig/emulator/emulatedBoard.js';
import { CONFIG_SETTINGS } from '../../src/rig/protocol/configSettings.js';
import { ERROR_TABLE, ErrorCode, errorByCode } from '../../src/rig/protocol/errorCodes.js';
import { PIN_MAP } from '../../src/rig/protocol/pinMap.js';

const dir = firmwareDir();

describe('the shared protocol table', () => {
  it('has generated C and TypeScript files that match protocol.json', () => {
    // exits non-zero and names the stale files when someone edited the JSON without regenerating
    expect(() => execFileSync('node', [join(dir, 'tools', 'generate.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('gives every error a distinct code and name, and the C header defines the same codes', () => {
    const codes = ERROR_TABLE.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    const header = readFileSync(join(dir, 'core', 'generated', 'dr_table.h'), 'utf8');
    for (const e of ERROR_TABLE) expect(header).toContain(`#define DR_E_${e.name.toUpperCase()} ${e.code} `);
    expect(errorByCode(ErrorCode.jam)?.name).toBe('jam');
    expect(errorByCode(999)).toBeUndefined();
  });

  it('is the table PROTOCOL.md documents', () => {
    const doc = readFileSync(join(dir, 'PROTOCOL.md'), 'utf8');
    for (const e of ERROR_TABLE) expect(doc).toContain(`| ${e.code} | ${e.name} |`);
    for (const p of PIN_MAP) expect(doc).toContain(p.pin);
  });

  it('has the config settings PROTOCOL.md documents, with their ranges and defaults, in canonical order', () => {
    const doc = readFileSync(join(dir, 'PROTOCOL.md'), 'utf8');
    for (const s of CONFIG_SETTINGS) {
      const takes = s.kind === 'number' ? `${s.min}..${s.max}${s.unit ? ` ${s.unit}` : ''}` : s.kind === 'choice' ? s.values.map((v) => `\`${v}\``).join(' or ') : `1 to ${s.maxLength} of`;
      const def = s.kind === 'number' ? String(s.default) : `\`${s.default}\``;
      expect(doc).toContain(`| \`${s.key}\` | ${takes}`);
      expect(doc).toMatch(new RegExp(`\\| \`${s.key}\` \\| [^|]+ \\| ${def.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\|`));
    }
    const canonical = /`(tumbler=… .*rig=…)`/.exec(doc)?.[1] ?? '';
    expect(canonical.split(' ').map((kv) => kv.split('=')[0])).toEqual(CONFIG_SETTINGS.map((s) => s.key));
  });

  it('assigns every rig pin to a different Arduino pin', () => {
    const pins = PIN_MAP.map((p) => p.arduino);
    expect(new Set(pins).size).toBe(pins.length);
    expect(PIN_MAP.find((p) => p.name === 'servo')?.pin).toBe('D9'); // OC1A: the Timer1 pulse depends on it
  });
});
