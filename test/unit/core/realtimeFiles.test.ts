import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REALTIME } from '../../support/realtimeFiles.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Starts the emulated board: directly, through a command given `--rig emulated`, or by opening a session made with `emulated: true`. */
const startsBoard = (text: string): boolean =>
  /EmulatedBoard\.start\(|'--rig',\s*'emulated'/.test(text) || (/emulated: true/.test(text) && /openSession\(/.test(text));

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
  });

  it('names every test file that starts the emulated board, and no other', () => {
    const self = fileURLToPath(import.meta.url);
    const starting = testFiles(join(root, 'test'))
      .filter((f) => f !== self)
      .filter((f) => startsBoard(textWithHelpers(f)))
      .map((f) => relative(root, f))
      .sort();
    expect(starting).toEqual([...REALTIME].sort());
  });
});
