import { describe, expect, it } from 'vitest';
import { importSettings } from '../../../src/cli/importSettings.js';

const exported = (alpha: number) => ({ kind: 'manifest' as const, session: { simulated: false, config: { imported: [], settings: { alpha, delta: 0.05, serialAlpha: 0.01 } } } });

describe('importSettings', () => {
  it("keeps the settings the files' manifests agree on", () => {
    const kept = importSettings([{ file: 'a.jsonl', format: 'jsonl', rows: 1, manifest: exported(0.001) }, { file: 'b.jsonl', format: 'jsonl', rows: 1, manifest: exported(0.001) }]);
    expect(kept.settings).toEqual({ alpha: 0.001, delta: 0.05, serialAlpha: 0.01 });
  });

  it('leaves the defaults, and says why, when the manifests disagree or a file has none', () => {
    const differ = importSettings([{ file: 'a.jsonl', format: 'jsonl', rows: 1, manifest: exported(0.001) }, { file: 'b.jsonl', format: 'jsonl', rows: 1, manifest: exported(0.01) }]);
    expect(differ.settings).toBeUndefined();
    expect(differ.line).toBe(
      "The files' manifests do not agree on the settings (a.jsonl: alpha 0.001, FAIR_WITHIN margin ±0.05, rig checks at 0.01; b.jsonl: alpha 0.01, FAIR_WITHIN margin ±0.05, rig checks at 0.01): its dice are judged at alpha 0.05, FAIR_WITHIN margin ±0.03, rig checks at 0.01 unless told otherwise.",
    );
    const missing = importSettings([{ file: 'a.jsonl', format: 'jsonl', rows: 1, manifest: exported(0.001) }, { file: 'b.csv', format: 'csv', rows: 1 }]);
    expect(missing.settings).toBeUndefined();
    expect(missing.line).toBe(
      "Not every file's manifest names the settings (a.jsonl: alpha 0.001, FAIR_WITHIN margin ±0.05, rig checks at 0.01; b.csv: no manifest): its dice are judged at alpha 0.05, FAIR_WITHIN margin ±0.03, rig checks at 0.01 unless told otherwise.",
    );
    expect(importSettings([{ file: 'b.csv', format: 'csv', rows: 1 }])).toEqual({});
  });

  it('says a lone export whose session had no settings carries none, rather than that manifests disagree', () => {
    const none = { kind: 'manifest' as const, session: { simulated: false, config: { imported: [] } } };
    const alone = importSettings([{ file: 'a.jsonl', format: 'jsonl', rows: 1, manifest: none }]);
    expect(alone.settings).toBeUndefined();
    expect(alone.line).toBe('The manifest of a.jsonl names no decision settings (its session was imported from logs that named none): its dice are judged at alpha 0.05, FAIR_WITHIN margin ±0.03, rig checks at 0.01 unless told otherwise.');
    const two = importSettings([{ file: 'a.jsonl', format: 'jsonl', rows: 1, manifest: none }, { file: 'b.csv', format: 'csv', rows: 1 }]);
    expect(two.line).toMatch(/^Not every file's manifest names the settings \(a\.jsonl: none in its manifest; b\.csv: no manifest\)/);
  });
});
