/* global document */
// Die icons as SVG, drawn from the die's kind and the face or symbol it shows:
// X-Wing symbols on red and green dice, pips on a D6, a numeral on a D3, an
// arrow on a direction die. Each icon names what it shows in data attributes and a title.
const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

function star(points, outer, inner) {
  const p = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = (Math.PI * i) / points - Math.PI / 2;
    p.push(`${(50 + r * Math.cos(a)).toFixed(1)},${(50 + r * Math.sin(a)).toFixed(1)}`);
  }
  return svg('polygon', { points: p.join(' '), fill: 'currentColor' });
}

// Hit and crit as the dice (and the camera's model of them, src/camera/sim/dieArt.ts) show them: a hit is a solid
// 8-point burst, a crit a 4-point star inside a ring. Swapping them would contradict the evidence crops.
function xwingGlyph(symbol) {
  const g = svg('g', { class: 'glyph' });
  if (symbol === 'hit') {
    g.append(star(8, 34, 14));
  } else if (symbol === 'crit') {
    g.append(star(4, 26, 7));
    g.append(svg('circle', { cx: 50, cy: 50, r: 32, fill: 'none', stroke: 'currentColor', 'stroke-width': 6, class: 'ring' }));
  } else if (symbol === 'focus') {
    g.append(svg('path', { d: 'M16 50Q50 18 84 50Q50 82 16 50Z', fill: 'none', stroke: 'currentColor', 'stroke-width': 6 }));
    g.append(svg('circle', { cx: 50, cy: 50, r: 10, fill: 'currentColor' }));
  } else if (symbol === 'evade') {
    g.append(svg('path', { d: 'M22 66Q50 20 78 34M62 24L78 34L68 50', fill: 'none', stroke: 'currentColor', 'stroke-width': 7, 'stroke-linecap': 'round' }));
    g.append(svg('path', { d: 'M24 80H76', stroke: 'currentColor', 'stroke-width': 6, 'stroke-linecap': 'round' }));
  }
  return g;
}

/**
 * One die. `kind`: red, green, d6, d3, direction (or the channel's die type);
 * `symbol`: what it shows (hit, crit, focus, blank, evade, or pips / value).
 */
export function dieIcon(kind, symbol, size = 64) {
  const root = svg('svg', { viewBox: '0 0 100 100', width: size, height: size, class: `die die-${kind}`, 'data-kind': kind, 'data-symbol': symbol, role: 'img' });
  const title = svg('title');
  title.textContent = `${kind} ${symbol}`;
  root.append(title);
  if (kind === 'red' || kind === 'green') {
    root.append(svg('polygon', { points: '30,4 70,4 96,30 96,70 70,96 30,96 4,70 4,30', class: 'body' }));
    root.append(xwingGlyph(symbol));
    return root;
  }
  root.append(svg('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16, class: 'body' }));
  const n = Number(symbol);
  if (kind === 'direction') {
    // Direction n points (n - 1) x 60 degrees clockwise from straight up.
    const g = svg('g', { transform: `rotate(${((n - 1) * 60) % 360} 50 50)`, class: 'arrow' });
    g.append(svg('path', { d: 'M50 14L70 44H57V84H43V44H30Z', fill: 'currentColor' }));
    root.append(g);
    const t = svg('text', { x: 88, y: 92, 'text-anchor': 'end', class: 'corner' });
    t.textContent = String(n);
    root.append(t);
    return root;
  }
  if (kind === 'd3') {
    // A D3's value as a numeral with a "D3" mark: pips would read as a D6 face the die did not show (a D6 read as a D3
    // shows 3 or 4 pips for a 2).
    const t = svg('text', { x: 50, y: 66, 'text-anchor': 'middle', class: 'numeral', 'font-size': 48, 'font-weight': 700, fill: 'currentColor' });
    t.textContent = String(n);
    const mark = svg('text', { x: 88, y: 92, 'text-anchor': 'end', class: 'corner' });
    mark.textContent = 'D3';
    root.append(t, mark);
    return root;
  }
  for (const [x, y] of PIPS[n] ?? []) root.append(svg('circle', { cx: x, cy: y, r: 9, class: 'pip', fill: 'currentColor' }));
  return root;
}
