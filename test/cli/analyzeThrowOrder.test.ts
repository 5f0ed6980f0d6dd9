/**
 * `analyze` and `pool` on a log sorted in a spreadsheet (by face), with its throw column: the rolls are taken in the
 * order of their throws, so the verdicts, the rig checks and the e-values are those of the log in its own order,
 * and a note names the die and the line where its rows went back. Taken in the rows' order, a fair die's sorted log
 * showed a rig repeating faces (RIG_SUSPECT).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

/** 1,200 rolls each of two fair-looking dice from a fixed generator (a linear congruential one: no library's randomness). */
function rows(): { throwNo: number; die: string; face: number }[] {
  let x = 12345;
  const next = (): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return Math.floor((x / 2147483648) * 6) + 1;
  };
  const out = [];
  for (let t = 1; t <= 1200; t++) for (const die of ['A', 'B']) out.push({ throwNo: t, die, face: next() });
  return out;
}

const csv = (r: readonly { throwNo: number; die: string; face: number }[]): string => `throw,die,type,face\n${r.map((x) => `${x.throwNo},${x.die},d6,${x.face}`).join('\n')}\n`;

describe('a log sorted by face, with its throw column', () => {
  it('gives the same analysis and pool as the log in throw order, with a note per die; the rig checks pass', async () => {
    const dir = tempDir('dicerig-throw-order-');
    const all = rows();
    const inOrder = join(dir, 'rolls.csv');
    const sorted = join(dir, 'sorted', 'rolls.csv');
    writeFileSync(inOrder, csv(all));
    mkdirSync(join(dir, 'sorted'));
    writeFileSync(sorted, csv([...all].sort((a, b) => a.face - b.face || a.die.localeCompare(b.die))));
    const a = await runCli('analyze', inOrder, '--json');
    const b = await runCli('analyze', sorted, '--json');
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(b.out.replaceAll(sorted, inOrder)).toBe(a.out);
    expect(a.err).toBe('');
    expect(b.err.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^dicerig: note: ${sorted.replace(/[.]/g, '\\.')}: die "A"'s rows are not in the order of their throws \\(line \\d+ gives throw \\d+ after throw \\d+\\): its rolls are taken in throw order, the order they were rolled in\\.$`)),
      expect.stringMatching(/die "B"'s rows are not in the order of their throws/),
    ]);
    const text = await runCli('analyze', sorted);
    expect(text.out).not.toMatch(/RIG_SUSPECT/);
    const poolA = await runCli('pool', inOrder, '--size', '2', '--json');
    const poolB = await runCli('pool', sorted, '--size', '2', '--json');
    expect(poolA.code).toBe(0);
    expect(poolB.out.replaceAll(sorted, inOrder)).toBe(poolA.out);
    expect(poolB.err).toMatch(/die "A"'s rows are not in the order of their throws/);
  });
});
