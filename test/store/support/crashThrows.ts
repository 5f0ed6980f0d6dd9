import type { DieRecord, ThrowInput } from '../../../src/store/records.js';
import { okThrow } from './fixtures.js';

export const CRASH_SESSION = 'crash-test';

/** Throw n of the crash test: every seventh is void (no rolls), the rest ok with every die. */
export function crashThrow(n: number, dice: readonly DieRecord[]): ThrowInput {
  const t = okThrow(n, dice);
  return n % 7 === 0 ? { startedAt: t.startedAt, endedAt: t.endedAt, status: 'void', why: `fault in throw ${n}`, rolls: [] } : t;
}
