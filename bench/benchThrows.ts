/** The rig and the 4-dice throws the store and fleet benches write (faces vary with the throw and the channel). */
import type { RigIdentity } from '../src/rig/driver.js';
import type { DieRecord, ThrowInput } from '../src/store/records.js';

export const BENCH_RIG: RigIdentity = { driver: 'simulated', firmware: 'bench', protocol: 1, rigId: 'bench', configHash: 'bench', tumbler: 'servo' };
const FACES = ['hit-1', 'hit-2', 'hit-3', 'crit', 'focus-1', 'focus-2', 'blank-1', 'blank-2'];

export function benchThrow(n: number, dice: readonly DieRecord[]): ThrowInput {
  return {
    startedAt: 1_700_000_000_000 + n * 2000,
    endedAt: 1_700_000_000_000 + n * 2000 + 1500,
    status: 'ok',
    rolls: dice.map((d, i) => {
      const face = FACES[(n * 7 + i * 3) % 8] as string;
      return { dieId: d.id, channel: i, faceId: face, symbol: face.replace(/-\d$/, ''), confidence: 0.97, classifierVersion: 'bench', evidencePath: `ev/${n}/${i}.png`, evidenceHash: 'x'.repeat(64) };
    }),
  };
}
