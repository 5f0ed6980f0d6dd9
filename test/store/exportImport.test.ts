import { describe, expect, it } from 'vitest';
import { resolveDieRolls } from '../../src/analysis/dieRolls.js';
import { allDice } from '../../src/dice/catalogue.js';
import { InputError } from '../../src/core/errors.js';
import { parseRollLog } from '../../src/rolllog/parseRollLog.js';
import { exportSession } from '../../src/store/exportSession.js';
import { importedSimulated, importRolls } from '../../src/store/importRolls.js';
import { embeddedManifest } from '../../src/store/manifest.js';
import { RollStore } from '../../src/store/rollStore.js';
import { okThrow, storeWithSession, tempDbPath } from './support/fixtures.js';

const dice = allDice();
const layouts = dice.map((d) => ({ typeId: d.id, symbols: d.symbols }));

function exportText(store: RollStore, sessionId: number, format: 'csv' | 'jsonl'): string {
  const e = exportSession(store, store.findSession(String(sessionId)), format, new Date(0));
  const head = format === 'jsonl' ? [JSON.stringify(e.manifest)] : [];
  return [...head, ...e.lines()].join('\n') + '\n';
}

describe('export and import', () => {
  for (const format of ['csv', 'jsonl'] as const) {
    it(`keeps every die’s rolls in order through ${format} export and import (the serial checks depend on the order)`, () => {
      const { store, dice: stored, session } = storeWithSession();
      for (let n = 1; n <= 30; n++) {
        // Die G1 sits out throws 10..14 (as when a die with a verdict is no longer rolled), so the dice have different lengths.
        const inThrow = n >= 10 && n < 15 ? stored.slice(0, 2) : stored;
        store.recordThrow(session.id, okThrow(n, inThrow));
      }
      const text = exportText(store, session.id, format);
      const parsed = parseRollLog(text, { file: `s.${format}`, layouts });
      const rolls = parsed.dice.map((d) => resolveDieRolls(d, dice));

      const target = RollStore.open(tempDbPath());
      const result = importRolls(target, rolls, [{ file: `s.${format}`, format: parsed.format, rows: parsed.rows, manifest: embeddedManifest(text, 's') }], { at: 42, name: 'copy' });
      expect(result).toMatchObject({ throws: 30, rolls: 85, dice: 3 });
      const before = store.dieRolls(session.id).map((s) => [s.die.label, s.faces]);
      const after = target.dieRolls(result.session.id).map((s) => [s.die.label, s.faces]);
      expect(after).toEqual(before);
      expect(target.getSession(result.session.id)).toMatchObject({ origin: 'import', state: 'finished', startedAt: 42, endedAt: 42 });
      expect(target.verify().ok).toBe(true);
      store.close();
      target.close();
    });
  }

  for (const format of ['csv', 'jsonl'] as const) {
    it(`keeps the rolls the reader left unresolved, each in its place, through ${format} export and import, and a labelled one as its label`, () => {
      const { store, dice: stored, session } = storeWithSession();
      // R2 is declined in throws 3, 7 and 8, G1 in throw 8; one of R2's is labelled later, so it counts as read.
      const declined = (n: number, labels: readonly string[]) => {
        const t = okThrow(n, stored);
        return { ...t, rolls: t.rolls.map((r, i) => (labels.includes((stored[i] as { label: string }).label) ? { dieId: r.dieId, channel: i, resolution: 'unresolved' as const } : r)) };
      };
      for (let n = 1; n <= 10; n++) store.recordThrow(session.id, n === 3 || n === 7 ? declined(n, ['R2']) : n === 8 ? declined(n, ['R2', 'G1']) : okThrow(n, stored));
      const labelled = store.unresolvedRolls(session.id).find((r) => r.throwIndex === 7);
      store.reviewRoll(session.id, { rollId: labelled?.rollId as number, faceId: 'crit', reviewer: 'ada', at: 1_700_000_100_000 });
      const text = exportText(store, session.id, format);
      // Its rows (the JSON Lines manifest, first, names its unresolvedRolls too): the three left unresolved.
      expect(text.split('\n').slice(format === 'jsonl' ? 1 : 0).join('\n').match(/unresolved/g)?.length).toBe(3);
      const parsed = parseRollLog(text, { file: `s.${format}`, layouts });
      const rolls = parsed.dice.map((d) => resolveDieRolls(d, dice));
      expect(Object.fromEntries(rolls.map((r) => [r.label, r.unresolvedAt ?? []]))).toEqual({ R1: [], R2: [2, 6], G1: [7] });

      const target = RollStore.open(tempDbPath());
      const result = importRolls(target, rolls, [{ file: `s.${format}`, format: parsed.format, rows: parsed.rows, manifest: embeddedManifest(text, 's') }], { at: 42 });
      expect(result).toMatchObject({ throws: 10, rolls: 27, unresolved: 3, dice: 3 });
      // The same unresolved rolls in the same throws (every die rolled in every throw), the labelled one read as crit.
      const where = (s: RollStore, id: number) => s.unresolvedRolls(id).map((r) => [r.throwIndex, r.dieLabel]);
      expect(where(target, result.session.id)).toEqual([[3, 'R2'], [8, 'R2'], [8, 'G1']]);
      expect(where(target, result.session.id)).toEqual(where(store, session.id));
      const r2 = (s: RollStore, id: number) => s.dieRolls(id).find((d) => d.die.label === 'R2')?.symbols;
      expect(r2(target, result.session.id)).toEqual(r2(store, session.id));
      expect(target.verify().ok).toBe(true);
      store.close();
      target.close();
    });
  }

  it('takes the simulated flag from the manifests, real when there is none, and refuses files that disagree', () => {
    const sim = { kind: 'manifest' as const, session: { simulated: true } };
    const real = { kind: 'manifest' as const, session: { simulated: false } };
    expect(importedSimulated([{ file: 'a', format: 'jsonl', rows: 1, manifest: sim }])).toBe(true);
    expect(importedSimulated([{ file: 'a', format: 'csv', rows: 1 }, { file: 'b', format: 'jsonl', rows: 1, manifest: real }])).toBe(false);
    expect(() => importedSimulated([{ file: 'a', format: 'csv', rows: 1 }, { file: 'b', format: 'jsonl', rows: 1, manifest: sim }])).toThrow(InputError);
  });

  it('reads a manifest from a JSON Lines first line or a CSV comment line, and names the line of a bad one', () => {
    expect(embeddedManifest('{"kind":"manifest","session":{"simulated":true}}\n{"die":"A","face":"1"}\n', 'f')?.session.simulated).toBe(true);
    expect(embeddedManifest('# dicerig-manifest {"kind":"manifest","session":{"simulated":false}}\ndie,face\n', 'f')?.session.simulated).toBe(false);
    expect(embeddedManifest('die,face\nA,1\n', 'f')).toBeUndefined();
    expect(embeddedManifest('{"die":"A","face":"1"}\n', 'f')).toBeUndefined();
    expect(() => embeddedManifest('\n{"kind":"manifest","session":{}}\n', 'f.jsonl')).toThrow(
      'f.jsonl, line 2: the export manifest is not valid: session.simulated: Invalid input: expected boolean, received undefined',
    );
  });
});
