import { describe, expect, it } from 'vitest';
import { MAX_MARKS, sealOf } from '../../src/store/exportSeal.js';
import { checkSeal, sealDifferences } from '../../src/store/exportSealCheck.js';

/*
 * An export's seal: digests of its rows (canonical, so CSV and JSON Lines of one session seal alike) and of its
 * manifest's fields, with per-die running marks that find the first line a change touched.
 */
type Row = { throw: number; die: string; face: string; confidence: number; resolution?: 'reviewed' | 'unresolved'; reviewer?: string };

function rowsOf(dice: readonly string[], throws: number): Row[] {
  const rows: Row[] = [];
  for (let t = 1; t <= throws; t++) for (const [i, die] of dice.entries()) rows.push({ throw: t, die, face: String(((t * 7 + i * 3) % 6) + 1), confidence: 0.9 + ((t % 10) / 100) });
  return rows;
}

const HEADER = 'throw,die,type,channel,face,symbol,confidence,classifier,simulated,resolution,reviewer';
function csv(rows: readonly Row[]): string[] {
  return [HEADER, ...rows.map((r) => [r.throw, r.die, 'd6', 0, r.face, r.face, r.confidence, 'd6-pips/1', 1, r.resolution ?? 'read', r.reviewer ?? ''].join(','))];
}
function jsonl(rows: readonly Row[]): string[] {
  return rows.map((r) =>
    JSON.stringify({ throw: r.throw, die: r.die, type: 'd6', channel: 0, face: r.face, symbol: r.face, confidence: r.confidence, classifier: 'd6-pips/1', simulated: true, ...(r.resolution ? { resolution: r.resolution, reviewer: r.reviewer } : {}) }),
  );
}
const manifest = (extra: Record<string, unknown> = {}) => ({
  kind: 'manifest',
  formatVersion: 2,
  session: { id: 1, simulated: true, headHash: 'ab'.repeat(32), throwCount: 50 },
  counts: { throws: 50 },
  verdicts: { alpha: 0.001, dice: [{ label: 'A', kind: 'INCONCLUSIVE', sentence: 'a' }, { label: 'B', kind: 'INCONCLUSIVE', sentence: 'b' }] },
  ...extra,
});
const sealed = (lines: string[], m = manifest()) => ({ ...m, seal: sealOf(lines, m) });

describe('an export seal', () => {
  const rows = rowsOf(['A', 'B'], 50);

  it('gives CSV and JSON Lines of the same rows the same digest, per die too, whatever the line endings', () => {
    const a = sealOf(csv(rows), manifest());
    const b = sealOf(jsonl(rows), manifest());
    expect(a.digest).toBe(b.digest);
    expect(a.dice).toEqual(b.dice);
    expect(a.rows).toBe(100);
    const crlf = csv(rows).map((l) => `${l}\r`);
    expect(checkSeal(crlf, sealed(csv(rows)))).toMatchObject({ seal: 'sealed', ok: true, rows: 100 });
    // A number spelt another way (0.90 for 0.9) is the same value: not a change.
    const respelt = csv(rows).map((l) => l.replace(/,0\.9,/, ',0.90,'));
    expect(respelt).not.toEqual(csv(rows));
    expect(checkSeal(respelt, sealed(csv(rows))).ok).toBe(true);
  });

  it('names the die and the line of a changed row', () => {
    const lines = csv(rows);
    const edited = [...lines];
    edited[9] = (edited[9] as string).replace(/,([1-6]),\1,/, (_, f: string) => `,${(Number(f) % 6) + 1},${(Number(f) % 6) + 1},`);
    expect(edited[9]).not.toBe(lines[9]);
    const check = checkSeal(edited, sealed(lines));
    expect(check.ok).toBe(false);
    expect(check.dice).toEqual([{ label: (edited[9] as string).split(',')[1], rows: { sealed: 50, found: 50, line: 10, kind: 'changed' } }]);
    expect(sealDifferences(check)[0]).toContain('from line 10 on');
  });

  it('finds two rolls of one die swapped, at the first of them, though the counts are the same', () => {
    const lines = jsonl(rows);
    const swapped = [...lines];
    // Rows 21 and 23 of the file are die A's 11th and 12th rolls; their faces differ.
    const a = JSON.parse(lines[20] as string) as Row;
    const b = JSON.parse(lines[22] as string) as Row;
    expect(a.face).not.toBe(b.face);
    swapped[20] = JSON.stringify({ ...a, face: b.face, symbol: b.face });
    swapped[22] = JSON.stringify({ ...b, face: a.face, symbol: a.face });
    const check = checkSeal(swapped, sealed(lines));
    expect(check.dice.map((d) => [d.label, d.rows?.line])).toEqual([['A', 21]]);
  });

  it('finds a dropped line, a line added at the end and rows cut off the end', () => {
    const lines = csv(rows);
    // Die B loses its row at line 31: its next row, two lines on before the drop, now stands at line 32.
    const dropped = lines.filter((_, i) => i !== 30);
    expect(checkSeal(dropped, sealed(lines)).dice.map((d) => [d.label, d.rows?.line])).toEqual([[(lines[30] as string).split(',')[1], 32]]);
    const added = [...lines, (lines[1] as string).replace(/^1,/, '51,')];
    expect(checkSeal(added, sealed(lines)).dice).toEqual([{ label: 'A', rows: { sealed: 50, found: 51, line: 102, kind: 'added' } }]);
    const cut = lines.slice(0, -2);
    expect(checkSeal(cut, sealed(lines)).dice.map((d) => [d.label, d.rows?.kind, d.rows?.found])).toEqual([
      ['A', 'missing', 49],
      ['B', 'missing', 49],
    ]);
  });

  it('keeps a mark every few rows for a die of more than MAX_MARKS rows, and brackets the first changed line between two', () => {
    const many = rowsOf(['A'], MAX_MARKS * 2 + 10);
    const lines = jsonl(many);
    const seal = sealOf(lines, manifest());
    const die = seal.dice.find((d) => d.label === 'A');
    expect(die?.every).toBe(4);
    expect(Buffer.from(die?.marks ?? '', 'base64').length).toBe(3 * Math.floor((MAX_MARKS * 2 + 10) / 4));
    const edited = [...lines];
    edited[6001] = JSON.stringify({ ...(JSON.parse(lines[6001] as string) as Row), confidence: 0.5 });
    const r = checkSeal(edited, { ...manifest(), seal }).dice[0]?.rows;
    expect(r?.kind).toBe('changed');
    expect(r?.line).toBeLessThanOrEqual(6002);
    expect(r?.to).toBeGreaterThanOrEqual(6002);
    expect((r?.to as number) - (r?.line as number)).toBe(3);
  });

  it("pins a forged verdict to its die, and names the manifest's other changed fields", () => {
    const lines = csv(rows);
    const m = sealed(lines);
    const forged = { ...m, verdicts: { ...m.verdicts, dice: [m.verdicts.dice[0], { label: 'B', kind: 'FAIR_WITHIN', sentence: 'forged' }] } };
    expect(checkSeal(lines, forged)).toMatchObject({ ok: false, fields: [], dice: [{ label: 'B', verdict: true }] });
    const counts = { ...m, counts: { throws: 49 }, verdicts: { ...m.verdicts, alpha: 0.05 } };
    expect(checkSeal(lines, counts)).toMatchObject({ ok: false, fields: ['counts', 'verdicts'], dice: [] });
    // Rows turned into a person's labels are changed rows too.
    const reviewed = csv(rows.map((r, i) => (i === 40 ? { ...r, resolution: 'reviewed' as const, reviewer: 'me' } : r)));
    expect(checkSeal(reviewed, m).dice.map((d) => [d.label, d.rows?.line])).toEqual([['A', 42]]);
  });

  it('reads a manifest without a seal as unsealed (version 1), and one of a sealed format without it as the seal removed', () => {
    const lines = csv(rows);
    expect(checkSeal(lines, { ...manifest(), formatVersion: 1 })).toMatchObject({ seal: 'unsealed', ok: true, rows: 100 });
    expect(checkSeal(lines, manifest())).toMatchObject({ seal: 'removed', ok: false });
    expect(checkSeal(lines, { ...manifest(), seal: { algorithm: 'sha256' } })).toMatchObject({ seal: 'removed', ok: false });
  });
});
