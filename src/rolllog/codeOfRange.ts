/**
 * The index in `dictionary` of the string written in `text[start, end)`, or -1: compared in place, so a row's
 * token is sliced out of the file's text only when it is new (what keeps large logs fast).
 */
export function codeOfRange(dictionary: readonly string[], text: string, start: number, end: number): number {
  const length = end - start;
  for (let c = 0; c < dictionary.length; c++) {
    const known = dictionary[c] as string;
    if (known.length === length && text.startsWith(known, start)) return c;
  }
  return -1;
}
