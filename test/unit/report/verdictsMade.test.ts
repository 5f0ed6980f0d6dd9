import { describe, expect, it } from 'vitest';
import { verdictsMadeWords } from '../../../src/report/verdictsMade.js';
import type { SessionVerdicts } from '../../../src/stats/dieVerdict.js';

const verdicts = (reviewed: number[]): SessionVerdicts => ({ dice: reviewed.map((r) => ({ reviewed: r })) }) as unknown as SessionVerdicts;

describe("a report's heading of a session's stored verdicts", () => {
  it('says the session made them, and, once people labelled declined rolls, that its rule remade them with those labels', () => {
    expect(verdictsMadeWords(verdicts([0, 0]))).toBe('Verdicts as the session made them (not recomputed by this report)');
    expect(verdictsMadeWords(verdicts([3, 1]))).toBe("Verdicts as the session's rule makes them, with the 4 labels people gave its declined rolls (not recomputed by this report)");
  });
});
