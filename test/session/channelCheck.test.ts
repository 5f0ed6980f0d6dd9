/**
 * The channel-order check of hardware/first-run.md ("Which channel is channel
 * 0"): one die loaded, the other channels empty, a short run stops after
 * `maxConsecutiveMissing` throws and its message tells whether the die lay in
 * channel 0. Scripted rig, camera and vision on a simulated clock.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSession } from '../../src/session/runner.js';
import { scriptedSession, type ChannelScript } from './support/fakes.js';

/** Four D6 channels with one die, lying in channel `loaded`; the others empty. */
function oneDieIn(loaded: number) {
  return scriptedSession({ types: ['d6', 'd6', 'd6', 'd6'], fallback: (call, c): ChannelScript => (c === loaded ? String((call % 6) + 1) : { missing: true }), rules: { budgetRolls: 100 } });
}

describe('the channel-order check of the first-run guide', () => {
  it('with the one die in channel 0, stops after 3 throws naming the die of channel 1, never the first die', async () => {
    const s = oneDieIn(0);
    const result = await runSession(s.deps, s.plan);
    expect(result).toMatchObject({ state: 'aborted', stop: 'missing-die' });
    expect(result.reason).toMatch(/^Die "d6-1" was not found in channel 1 in 3 throws in a row/);
    expect(result.dice[0]).toMatchObject({ channel: 0, rolls: 3, unresolved: 0 });
  });

  it('with the one die in another channel, names the first die in channel 0', async () => {
    for (const loaded of [1, 3]) {
      const s = oneDieIn(loaded);
      const result = await runSession(s.deps, s.plan);
      expect(result.reason).toMatch(/^Die "d6-0" was not found in channel 0 in 3 throws in a row/);
      expect(result.dice[loaded]).toMatchObject({ unresolved: 0 });
    }
  });

  it('is what the guide says to look for', () => {
    const guide = readFileSync('hardware/first-run.md', 'utf8').replace(/\s+/g, ' ');
    expect(guide).toContain('### Which channel is channel 0');
    expect(guide).toMatch(/Die "d6-B" was not found in channel 1 in 3 throws in a row/);
    expect(guide).toMatch(/Die "d6-A" was not found in channel 0/);
  });
});
