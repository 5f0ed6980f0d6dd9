/**
 * Which fleet sessions hold rolls another fleet session holds (imports of exports), worked out from the sessions'
 * rows and the hashes of the throws their exports' heads name.
 */
import { describe, expect, it } from 'vitest';
import { findCopies, headProbes, namedExports, type CopyCandidate } from '../../../src/fleet/copies.js';

const exported = (s: { id: number; startedAt: number; headHash: string; throwCount: number; config?: unknown }) => ({ origin: 'rig', ...s });
const importOf = (...sessions: unknown[]): string => JSON.stringify({ imported: sessions.map((s, i) => ({ file: `f${i}.jsonl`, format: 'jsonl', rows: 10, exportedSession: s })) });

const rig = (id: number, localId: number, startedAt: number, throwCount: number): CopyCandidate => ({ id, origin: 'rig', localId, originHost: 'a', startedAt, throwCount, configJson: null });
const imp = (id: number, throwCount: number, configJson: string): CopyCandidate => ({ id, origin: 'import', localId: 1, originHost: 'b', startedAt: 9_000 + id, throwCount, configJson });

/** Session 1 (rig) reaches head H40 at throw 40 and H60 at throw 60. */
const hashes = new Map([
  ['1:40', 'H40'],
  ['1:60', 'H60'],
]);
const hashAt = (s: number, i: number): string | undefined => hashes.get(`${s}:${i}`);

describe('copies among fleet sessions', () => {
  it('makes an import of an export of a session the fleet holds a copy of it, proven by the chain head, whichever was synced first', () => {
    const copy = imp(2, 60, importOf(exported({ id: 1, startedAt: 1000, headHash: 'H60', throwCount: 60 })));
    for (const sessions of [[rig(1, 1, 1000, 60), copy], [copy, rig(1, 1, 1000, 60)]]) {
      const found = findCopies(sessions, hashAt);
      expect([...found.keys()]).toEqual([2]);
      expect(found.get(2)?.of).toBe(1);
      expect(found.get(2)?.why).toMatch(/import of an export of fleet session 1 \(a:1\).*head H60.* at throw 60/);
    }
  });

  it('makes an import of an earlier export (before the session rolled on) a copy too', () => {
    const found = findCopies([rig(1, 1, 1000, 60), imp(2, 40, importOf(exported({ id: 1, startedAt: 1000, headHash: 'H40', throwCount: 40 })))], hashAt);
    expect(found.get(2)?.of).toBe(1);
  });

  it('knows the session by its id and start while the fleet holds fewer of its throws than the export had', () => {
    const found = findCopies([rig(1, 1, 1000, 30), imp(2, 60, importOf(exported({ id: 1, startedAt: 1000, headHash: 'H60', throwCount: 60 })))], hashAt);
    expect(found.get(2)?.of).toBe(1);
    expect(found.get(2)?.why).toMatch(/holds 30 of the 60 throws/);
  });

  it('does not take a session of the same id and start whose chain does not reach the head for the exported one', () => {
    // Another host's session 1, started the same millisecond, holding as many throws: its throw 60 is another.
    expect(findCopies([rig(1, 1, 1000, 60), imp(2, 60, importOf(exported({ id: 1, startedAt: 1000, headHash: 'OTHER', throwCount: 60 })))], hashAt).size).toBe(0);
  });

  it('counts one of two imports of one export whose session the fleet does not hold: the one with more throws, else the first', () => {
    const s = exported({ id: 7, startedAt: 5, headHash: 'X', throwCount: 50 });
    expect([...findCopies([imp(2, 50, importOf(s)), imp(3, 50, importOf(s))], hashAt)]).toEqual([[3, expect.objectContaining({ of: 2 })]]);
    const earlier = exported({ id: 7, startedAt: 5, headHash: 'X30', throwCount: 30 });
    expect([...findCopies([imp(2, 30, importOf(earlier)), imp(3, 50, importOf(s))], hashAt)]).toEqual([[2, expect.objectContaining({ of: 3 })]]);
  });

  it('makes an import of an export of an import a copy of the session the first import copied', () => {
    const first = exported({ id: 1, startedAt: 1000, headHash: 'H60', throwCount: 60 });
    // The export of fleet session 2 (an import, whose own chain reaches I60) names session 1's export inside it.
    const second = { id: 1, origin: 'import', startedAt: 9_002, headHash: 'I60', throwCount: 60, config: JSON.parse(importOf(first)) as unknown };
    const found = findCopies([rig(1, 1, 1000, 60), imp(2, 60, importOf(first)), imp(3, 60, importOf(second))], (s, i) => (s === 2 && i === 60 ? 'I60' : hashAt(s, i)));
    expect(found.get(2)?.of).toBe(1);
    expect(found.get(3)?.of).toBe(1);
    expect(found.get(3)?.why).toMatch(/itself a copy of fleet session 1/);
  });

  it('leaves rig sessions and imports of sessions the fleet does not hold counted', () => {
    expect(findCopies([rig(1, 1, 1000, 60), imp(2, 10, importOf(exported({ id: 4, startedAt: 3, headHash: 'Z', throwCount: 10 }))), imp(3, 10, importOf())], hashAt).size).toBe(0);
  });

  it('reads the exported sessions an import names at any depth, and asks for the throws their heads would be', () => {
    const inner = exported({ id: 1, startedAt: 1000, headHash: 'H40', throwCount: 40 });
    const config = importOf({ id: 2, startedAt: 2000, headHash: 'I40', throwCount: 40, config: JSON.parse(importOf(inner)) as unknown });
    expect(namedExports(config)).toEqual([
      { id: 2, startedAt: 2000, headHash: 'I40', throwCount: 40 },
      { id: 1, startedAt: 1000, headHash: 'H40', throwCount: 40 },
    ]);
    expect(namedExports('not json')).toEqual([]);
    expect(headProbes([rig(1, 1, 1000, 60), rig(5, 1, 1000, 10), imp(2, 40, config)])).toEqual([
      { sessionId: 1, index: 40 },
      { sessionId: 2, index: 40 },
    ]);
  });
});
