import { escapeHtml } from '../escape.js';
import { CHART_FONT, type Scene, type Shape, type ShapeData } from './scene.js';

/**
 * The scene as an inline `<svg>` element: scales with its container (viewBox,
 * width 100 %; its drawn width in `--drawn-width`, below which a phone's style sheet does not shrink it), titled for
 * screen readers, with each shape's `data` written as `data-*` attributes.
 */
export function sceneToSvg(scene: Scene, id: string): string {
  const titleId = `${id}-title`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" id="${escapeHtml(id)}" viewBox="0 0 ${scene.width} ${scene.height}" width="${scene.width}" height="${scene.height}" ` +
      `role="img" aria-labelledby="${escapeHtml(titleId)}" font-family="${escapeHtml(CHART_FONT)}" style="--drawn-width: ${scene.width}px">`,
    `<title id="${escapeHtml(titleId)}">${escapeHtml(scene.title)}</title>`,
    `<rect x="0" y="0" width="${scene.width}" height="${scene.height}" fill="${scene.background}"/>`,
    ...scene.shapes.map(shapeToSvg),
    '</svg>',
  ];
  return parts.join('\n');
}

function shapeToSvg(s: Shape): string {
  switch (s.kind) {
    case 'rect':
      return `<rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.width)}" height="${n(s.height)}" fill="${s.fill}"${s.stroke ? ` stroke="${s.stroke}"` : ''}${data(s.data)}/>`;
    case 'line':
      return (
        `<line x1="${n(s.x1)}" y1="${n(s.y1)}" x2="${n(s.x2)}" y2="${n(s.y2)}" stroke="${s.stroke}" stroke-width="${n(s.width)}"` +
        `${s.dash ? ` stroke-dasharray="${s.dash.map(n).join(' ')}"` : ''}${data(s.data)}/>`
      );
    case 'polyline':
      return `<polyline points="${s.points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" fill="none" stroke="${s.stroke}" stroke-width="${n(s.width)}" stroke-linejoin="round"${data(s.data)}/>`;
    case 'circle':
      return `<circle cx="${n(s.cx)}" cy="${n(s.cy)}" r="${n(s.r)}" fill="${s.fill}"${s.stroke ? ` stroke="${s.stroke}"` : ''}${data(s.data)}/>`;
    case 'text': {
      const anchor = s.anchor && s.anchor !== 'start' ? ` text-anchor="${s.anchor}"` : '';
      const rotate = s.rotate ? ` transform="rotate(${n(s.rotate)} ${n(s.x)} ${n(s.y)})"` : '';
      return `<text x="${n(s.x)}" y="${n(s.y)}" font-size="${n(s.size)}" fill="${s.fill}"${anchor}${s.bold ? ' font-weight="bold"' : ''}${rotate}${data(s.data)}>${escapeHtml(s.text)}</text>`;
    }
  }
}

/** Coordinates to two decimals: plenty for a screen, and keeps the HTML small. */
function n(x: number): string {
  return String(Math.round(x * 100) / 100);
}

function data(d: ShapeData | undefined): string {
  if (d === undefined) return '';
  return Object.entries(d)
    .map(([k, v]) => ` data-${k}="${escapeHtml(String(v))}"`)
    .join('');
}
