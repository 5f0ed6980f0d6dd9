/** Small readers of the report's HTML for tests: the report is generated, so its structure is regular. */

/** The `<section class="die" ...>` of one die (by its HTML id). */
export function dieSectionHtml(html: string, key: string): string {
  const start = html.indexOf(`<section class="die" id="die-${key}"`);
  if (start < 0) throw new Error(`no section for die ${key}`);
  return html.slice(start, html.indexOf('</section>', start));
}

/** The text of each `data-col` cell of the table row with these attributes (e.g. `data-level="face" data-label="hit-1"`). */
export function rowCells(html: string, rowAttributes: string): Record<string, string> {
  const start = html.indexOf(`<tr ${rowAttributes}>`);
  if (start < 0) throw new Error(`no row <tr ${rowAttributes}>`);
  const row = html.slice(start, html.indexOf('</tr>', start));
  const cells: Record<string, string> = {};
  for (const m of row.matchAll(/<t[dh][^>]*data-col="([^"]+)"[^>]*>(.*?)<\/t[dh]>/g)) cells[m[1] as string] = stripTags(m[2] as string);
  return cells;
}

export function stripTags(s: string): string {
  return s
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** The numeric attributes of the first SVG element matching `tag` with these data attributes. */
export function svgShape(svg: string, tag: string, data: Record<string, string>): Record<string, string> {
  const wanted = Object.entries(data).map(([k, v]) => `data-${k}="${v}"`);
  for (const m of svg.matchAll(new RegExp(`<${tag}\\b([^>]*)/?>`, 'g'))) {
    const attrs = m[1] as string;
    if (wanted.every((w) => attrs.includes(w))) return Object.fromEntries([...attrs.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1] as string, a[2] as string]));
  }
  throw new Error(`no <${tag}> with ${wanted.join(' ')}`);
}

/** The inline SVG with this id. */
export function svgById(html: string, id: string): string {
  const start = html.indexOf(`<svg xmlns="http://www.w3.org/2000/svg" id="${id}"`);
  if (start < 0) throw new Error(`no svg #${id}`);
  return html.slice(start, html.indexOf('</svg>', start));
}
