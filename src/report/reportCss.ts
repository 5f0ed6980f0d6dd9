import { PALETTE, VERDICT_COLOURS } from './chart/palette.js';

const badges = Object.entries(VERDICT_COLOURS)
  .map(([kind, c]) => `.badge.${kind.toLowerCase().replace('_', '-')} { background: ${c.bg}; color: ${c.fg}; }`)
  .join('\n');

/**
 * The report's style sheet, inline so the file stands alone. System fonts
 * only (no downloads). Print: A4, the verdict table on the first page, each
 * die on its own page, colours kept for the verdict badges.
 */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: ${PALETTE.ink}; --muted: ${PALETTE.muted}; --line: ${PALETTE.grid}; --accent: ${PALETTE.bar}; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0 auto; max-width: 1180px; padding: 0 24px 48px; font: 0.95rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 1.7rem; margin: 0.3em 0 0.2em; }
h2 { font-size: 1.3rem; margin: 1.6em 0 0.4em; padding-bottom: 0.2em; border-bottom: 1px solid var(--line); display: flex; align-items: center; gap: 0.6em; flex-wrap: wrap; }
h3 { font-size: 1.05rem; margin: 1.2em 0 0.3em; }
p { margin: 0.4em 0; }
a { color: var(--accent); }
code, .hash { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.85em; word-break: break-all; }
.provenance { margin: 16px 0 0; padding: 10px 14px; border-radius: 6px; font-size: 0.95rem; }
.provenance.simulated { background: #fff4d6; border: 2px solid #e69f00; }
.provenance.real { background: #e9f5ef; border: 1px solid #009e73; }
.provenance.edited, .provenance.copy { background: #fde8e8; border: 2px solid #d55e00; }
.meta { display: flex; flex-wrap: wrap; gap: 2px 28px; margin: 10px 0; font-size: 0.9rem; }
.meta div { display: flex; gap: 6px; }
.meta dt { color: var(--muted); margin: 0; }
.meta dd { margin: 0; font-weight: 600; }
nav.toc { font-size: 0.9rem; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 4px 14px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.88rem; }
th, td { padding: 4px 9px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-weight: 600; color: var(--muted); border-bottom: 2px solid var(--line); }
tbody th { font-weight: 400; color: var(--ink); border-bottom: 1px solid var(--line); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.table-wrap { overflow-x: auto; }
.badge { display: inline-block; padding: 2px 9px; border-radius: 4px; font-size: 0.8rem; font-weight: 700; letter-spacing: 0.03em; white-space: nowrap; }
${badges}
.organiser-table td, .organiser-table tbody th { font-size: 0.92rem; }
.organiser-table td.game { font-size: 0.85rem; min-width: 15em; }
.organiser-table td.game div + div { margin-top: 2px; }
.organiser-table .badge { font-size: 0.75rem; }
.sign { margin-top: 14px; color: var(--muted); font-size: 0.85rem; }
.signature { margin-top: 18px; display: flex; flex-wrap: wrap; gap: 10px 40px; font-size: 0.9rem; }
.signature .blank { display: inline-block; min-width: 220px; border-bottom: 1px solid var(--ink); margin-left: 6px; }
.die-meta { color: var(--muted); font-size: 0.9rem; }
.meaning { background: #f6f8fa; border-left: 4px solid var(--accent); padding: 8px 14px; margin: 10px 0; }
.meaning.unfair { border-left-color: ${VERDICT_COLOURS.UNFAIR?.bg}; }
.meaning.fair-within { border-left-color: ${VERDICT_COLOURS.FAIR_WITHIN?.bg}; }
.meaning.rig-suspect { border-left-color: ${VERDICT_COLOURS.RIG_SUSPECT?.bg}; }
.sentence { font-size: 0.9rem; color: var(--muted); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(420px, 100%), 1fr)); gap: 18px; margin: 14px 0; align-items: start; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: #fff; }
figure svg { display: block; width: 100%; height: auto; }
.chart-data { font-size: 0.8rem; margin: 4px 0 0; }
.chart-data summary { cursor: pointer; color: var(--muted); }
figcaption { font-size: 0.8rem; color: var(--muted); margin-top: 4px; display: flex; justify-content: space-between; gap: 10px; }
.checks td.failed { color: ${VERDICT_COLOURS.UNFAIR?.bg}; font-weight: 700; }
.note { font-size: 0.85rem; color: var(--muted); }
footer { margin-top: 40px; font-size: 0.8rem; color: var(--muted); border-top: 1px solid var(--line); padding-top: 8px; }
/* On a phone a chart scaled to the screen would print its labels at 5 px: it keeps a width its labels read at (11 px
   text at no less than 0.9x) and scrolls sideways inside its frame, as a wide table does. */
@media screen and (max-width: 640px) {
  body { padding: 0 12px 32px; }
  figure { overflow-x: auto; }
  figure svg { min-width: calc(var(--drawn-width, 640px) * 0.9); }
}
@page { size: A4; margin: 12mm; }
@media print {
  html { font-size: 9.5pt; }
  body { max-width: none; padding: 0; }
  nav.toc, .png-link, details.chart-data { display: none; }
  a { color: inherit; text-decoration: none; }
  section.die, #rig-health, #homogeneity, #method { break-before: page; }
  figure, table, .meaning, .provenance, h2, h3 { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .charts { grid-template-columns: 1fr 1fr; gap: 8px; }
  figure { border: none; padding: 0; }
  .badge, .provenance, .meaning, figure svg { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .table-wrap { overflow: visible; }
}
`;
