/**
 * A short, file-name and HTML-id safe key per die label, unique within the
 * list: labels are free text (`Red, "lucky"`), and two labels may reduce to
 * the same key, so later ones get `-2`, `-3`...
 */
export function fileKeys(labels: readonly string[]): string[] {
  const used = new Set<string>();
  return labels.map((label, i) => {
    const base =
      label
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || `die-${i + 1}`;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}-${n}`;
    used.add(key);
    return key;
  });
}
