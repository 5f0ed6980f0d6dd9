/**
 * Frames kept by a camera under a clear platform show the dice's bottom faces: the guided steps that name them must
 * read them as the bottom face too, or every die would be named and learned as its opposite.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

const dir = tempDir('dicerig-keepframes-face-');

it('records the face the camera sees with kept frames, says --face bottom in the command it gives, and refuses to name them as the top face', async () => {
  const file = join(dir, 'below.yaml');
  writeFileSync(file, 'seed: 5\ndice:\n  - { label: kb-A, type: d6 }\n  - { label: kb-B, type: d6 }\nrig: { driver: sim }\ncamera: { source: sim, dieSizePx: 72, face: bottom }\nstopping: { budgetRolls: 6 }\n');
  const frames = join(dir, 'frames');
  const r = await runCli('run', file, '--db', join(dir, 'rolls.db'), '--keep-frames', frames, '--plain');
  expect(r.code, r.err).toBe(0);
  expect(r.out).toContain(`calibrate --die d6 --face bottom --camera ${frames} groups their dice for you to name`);
  expect(JSON.parse(readFileSync(join(frames, 'kept.json'), 'utf8'))).toMatchObject({ dice: 'd6', face: 'bottom' });

  const out = join(dir, 'check.json');
  const unsaid = await runCli('calibrate', '--die', 'd6', '--camera', frames, '--out', out);
  expect(unsaid.code).toBe(1);
  expect(unsaid.err).toContain('these throws were kept by a camera that sees the bottom face of the dice: calibrate them with --face bottom');
  const other = await runCli('calibrate', '--die', 'd6', '--camera', frames, '--face', 'top', '--out', out);
  expect(other.err).toContain('calibrate them with --face bottom, not --face top');
  // Given the face they were kept with, the guided steps go on to group them.
  const right = await runCli('calibrate', '--die', 'd6', '--camera', frames, '--face', 'bottom', '--out', out);
  expect(right.err).not.toContain('these throws were kept by a camera');
  expect(right.err).toMatch(/^Step 2 of 3: \d+ throws kept from an earlier check/m);
});
