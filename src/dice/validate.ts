import type { DieType } from './types.js';

/** One thing wrong with a die, at a key path relative to the die (`faces[3].symbol`, `opposite.hit-1`). */
export interface DieProblem {
  readonly path: string;
  readonly problem: string;
}

/** How far float face probabilities may drift from summing to 1 (decimal input like 1/3 written as 0.3333…). */
export const PROBABILITY_SUM_TOLERANCE = 1e-9;

/**
 * Every structural rule a die must meet, as a list (empty when the die is
 * sound): unique face ids and symbols (compared without case, as logs are
 * read: `A` and `a` would be counted as one), each face's symbol declared, each
 * symbol shown by some face, at least two distinct symbols, probabilities in
 * (0, 1] summing to 1, and an opposite map that is an involution without fixed
 * points covering every face.
 */
export function checkDieType(die: DieType): DieProblem[] {
  const problems: DieProblem[] = [];
  const add = (path: string, problem: string): void => void problems.push({ path, problem });

  if (die.faces.length < 2) add('faces', `a die needs at least 2 faces, not ${die.faces.length}`);

  const seenFaces = new Map<string, number>();
  const facesWithoutCase = new Map<string, number>();
  die.faces.forEach((f, i) => {
    const first = seenFaces.get(f.id);
    const other = facesWithoutCase.get(f.id.toLowerCase());
    if (first !== undefined) add(`faces[${i}].id`, `face id "${f.id}" is already used by faces[${first}]`);
    else {
      if (other !== undefined) add(`faces[${i}].id`, `face id "${f.id}" differs from faces[${other}]'s "${die.faces[other]?.id}" only in case (face ids compare without case)`);
      seenFaces.set(f.id, i);
      facesWithoutCase.set(f.id.toLowerCase(), i);
    }
  });

  // Said at the face that shows it (a file need not list its symbols); the symbol list only for what no face shows.
  const faceSymbols = new Map<string, string>();
  die.faces.forEach((f, i) => {
    const other = faceSymbols.get(f.symbol.toLowerCase());
    if (other !== undefined && other !== f.symbol) add(`faces[${i}].symbol`, `symbol "${f.symbol}" differs from "${other}" only in case (symbols compare without case)`);
    else faceSymbols.set(f.symbol.toLowerCase(), f.symbol);
  });
  const shownByFaces = new Set(die.faces.map((f) => f.symbol));
  const seenSymbols = new Set<string>();
  const symbolsWithoutCase = new Map<string, string>();
  die.symbols.forEach((s, i) => {
    const other = symbolsWithoutCase.get(s.toLowerCase());
    if (seenSymbols.has(s)) add(`symbols[${i}]`, `symbol "${s}" is listed twice`);
    else if (other !== undefined && !(shownByFaces.has(s) && shownByFaces.has(other))) add(`symbols[${i}]`, `symbol "${s}" differs from "${other}" only in case (symbols compare without case)`);
    else symbolsWithoutCase.set(s.toLowerCase(), s);
    seenSymbols.add(s);
  });
  die.faces.forEach((f, i) => {
    if (!seenSymbols.has(f.symbol)) add(`faces[${i}].symbol`, `"${f.symbol}" is not among the declared symbols (${die.symbols.join(', ')})`);
  });
  const shown = new Set(die.faces.map((f) => f.symbol));
  die.symbols.forEach((s, i) => {
    if (!shown.has(s)) add(`symbols[${i}]`, `symbol "${s}" is not shown by any face`);
  });
  // One symbol on every face: no roll could differ from another, and no test could tell the die from fair.
  if (die.faces.length >= 2 && shown.size < 2) add('faces', `die "${die.id}": every face shows "${die.faces[0]?.symbol}"; a die needs at least two distinct symbols`);

  if (die.faceProbabilities.length !== die.faces.length) {
    add('faceProbabilities', `${die.faceProbabilities.length} probabilities were given for ${die.faces.length} faces`);
  } else {
    let sum = 0;
    die.faceProbabilities.forEach((p, i) => {
      if (!Number.isFinite(p) || p <= 0 || p > 1) add(`faces[${i}].probability`, `probability ${p} is not greater than 0 and at most 1`);
      sum += p;
    });
    if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE) add('faces', `face probabilities sum to ${sum}, not 1`);
  }

  for (const [from, to] of Object.entries(die.opposite)) {
    if (!seenFaces.has(from)) add(`opposite.${from}`, `"${from}" is not a face of this die`);
    else if (!seenFaces.has(to)) add(`opposite.${from}`, `opposite face "${to}" is not a face of this die`);
    else if (from === to) add(`opposite.${from}`, `face "${from}" cannot be its own opposite`);
    else if (die.opposite[to] !== undefined && die.opposite[to] !== from) {
      add(`opposite.${from}`, `"${from}" is opposite "${to}", but "${to}" is opposite "${die.opposite[to]}" (opposites must pair up)`);
    }
  }
  for (const f of die.faces) {
    if (!Object.hasOwn(die.opposite, f.id)) add('opposite', `face "${f.id}" has no opposite face`);
  }
  return problems;
}
