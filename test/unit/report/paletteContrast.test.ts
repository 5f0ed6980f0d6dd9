import { describe, expect, it } from 'vitest';
import { PALETTE, VERDICT_COLOURS } from '../../../src/report/chart/palette.js';

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string): number => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (bl as number);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi as number) + 0.05) / ((lo as number) + 0.05);
}

describe('the report’s colours', () => {
  it('give every verdict badge and the chart’s coloured words 4.5:1 or more, as small text needs', () => {
    for (const [kind, c] of Object.entries(VERDICT_COLOURS)) expect(contrast(c.bg, c.fg), kind).toBeGreaterThanOrEqual(4.5);
    expect(contrast(PALETTE.thresholdText, PALETTE.background)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(PALETTE.decisionText, PALETTE.background)).toBeGreaterThanOrEqual(4.5);
  });
});
