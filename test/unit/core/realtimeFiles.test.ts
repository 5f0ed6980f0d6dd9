import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REALTIME } from '../../support/realtimeFiles.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Starts the emulated board: directly, with StandardFirmata on it, through a command given `--rig emulated`, through a
 * rig config of `driver: emulated` (a YAML file's or a serve config's), or by opening a session made with `emulated: true`.
 */
const startsBoard = (text: string): boolean =>
  /EmulatedBoard\.start\(|startEmulatedFirmata\(|'--rig',\s*'emulated'|driver: '?emulated'?/.test(text) || (/emulated: true/.test(text) && /openSession\(/.test(text));

/** Files that name an emulated rig in a config but never start it: they parse the config, or are refused before the board starts. */
const NAMES_ONLY = ['test/session/config.test.ts', 'test/session/firmataConfig.test.ts', 'test/session/refusedBeforeStore.test.ts'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? testFiles(p) : e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The file's text and that of the test modules it imports by relative path (one level down). */
function textWithHelpers(file: string): string {
  const text = readFileSync(file, 'utf8');
  const helpers = [...text.matchAll(/from '(\.[^']+)\.js'/g)]
    .map((m) => resolve(dirname(file), `${m[1]}.ts`))
    .filter((p) => p.startsWith(join(root, 'test')) && existsSync(p));
  return [text, ...helpers.map((p) => readFileSync(p, 'utf8'))].join('\n');
}

describe('the files that run beside nothing else', () => {
  it('names only test files that exist', () => {
    for (const f of REALTIME) expect(existsSync(join(root, f)), f).toBe(true);
    for (const f of NAMES_ONLY) expect(existsSync(join(root, f)), f).toBe(true);
  });

  it('names every test file that starts the emulated board, and no other', () => {
    const self = fileURLToPath(import.meta.url);
    const starting = testFiles(join(root, 'test'))
      .filter((f) => f !== self)
      .filter((f) => startsBoard(textWithHelpers(f)))
      .map((f) => relative(root, f))
      .filter((f) => !NAMES_ONLY.includes(f))
      .sort();
    expect(starting).toEqual([...REALTIME].sort());
  });
});
