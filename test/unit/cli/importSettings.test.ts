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
    expect(missing.line).toContain('b.csv: none');
    expect(importSettings([{ file: 'b.csv', format: 'csv', rows: 1 }])).toEqual({});
  });
});
