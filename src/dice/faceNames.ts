import type { DieType } from './types.js';

/**
 * What sentences and tables call a die's faces. A face id that also names another of the die's symbols (a D3's D6
 * face 2 reads 1, and "2" is also a D3 result) would be read as that symbol, so on such a die every face is named
 * with what it reads: "face 2 (reads 1)". Elsewhere a face's id is its name ("hit-2", a D6's "6").
 */
export function faceNames(die: DieType): readonly string[] {
  const symbols = new Set(die.symbols.map((s) => s.toLowerCase()));
  const ambiguous = die.faces.some((f) => f.id.toLowerCase() !== f.symbol.toLowerCase() && symbols.has(f.id.toLowerCase()));
  return die.faces.map((f) => (ambiguous ? `face ${f.id} (reads ${f.symbol})` : f.id));
}
