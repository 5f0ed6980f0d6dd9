/**
 * The report's colours, shared by the charts and the page. Colour-blind safe
 * where it carries meaning (blue vs vermillion, from Okabe & Ito), and every
 * coloured mark is also labelled, so a grey-scale print still reads.
 */
export const PALETTE = {
  ink: '#1f2328',
  muted: '#59636e',
  grid: '#d8dee4',
  axis: '#8c959f',
  background: '#ffffff',
  bar: '#0072b2',
  barOff: '#d55e00',
  interval: '#1f2328',
  expected: '#e69f00',
  evidence: '#0072b2',
  threshold: '#d55e00',
  thresholdZone: '#fbe3d6',
  decision: '#009e73',
  // Text in those hues, darkened to 4.5:1 on white (the lines keep the lighter marks).
  thresholdText: '#a84a00',
  decisionText: '#00785a',
} as const;

/** Verdict colours: background and text, each at 4.5:1 or more for the badges' small bold text. */
export const VERDICT_COLOURS: Readonly<Record<string, { readonly bg: string; readonly fg: string }>> = {
  UNFAIR: { bg: '#a84a00', fg: '#ffffff' },
  FAIR_WITHIN: { bg: '#00785a', fg: '#ffffff' },
  INCONCLUSIVE: { bg: '#6e7781', fg: '#ffffff' },
  RIG_SUSPECT: { bg: '#e69f00', fg: '#1f2328' },
};

/**
 * A diverging colour for a standardized residual: white at 0, vermillion
 * above, blue below, full strength at ±`limit`.
 */
export function residualColour(z: number, limit = 4): string {
  const t = Math.max(-1, Math.min(1, z / limit));
  const [r, g, b] = t >= 0 ? [213, 94, 0] : [0, 114, 178];
  const a = Math.abs(t);
  const mix = (c: number): number => Math.round(255 + (c - 255) * a);
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

/** Dark or light text, whichever reads on a residual colour. */
export function residualTextColour(z: number, limit = 4): string {
  return Math.abs(z) / limit > 0.55 ? '#ffffff' : PALETTE.ink;
}
