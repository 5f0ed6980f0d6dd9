/**
 * A value from a user's file, quoted for an error message: shortened to
 * `max` characters (with its full length said) and with every control
 * character escaped, so a 50 MB token or binary garbage (ESC, CR, NUL, BEL)
 * never reaches the terminal as it is.
 */
export function quoteValue(text: string, max = 40): string {
  const long = text.length > max;
  const shown = long ? text.slice(0, max) : text;
  // JSON escapes C0 controls, quotes and backslashes; DEL, C1 controls and line separators are escaped here.
  const escaped = JSON.stringify(shown)
    .slice(1, -1)
    .replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return long ? `"${escaped}…" (${text.length.toLocaleString('en-US')} characters)` : `"${escaped}"`;
}

/** A value as it is when it is short and plain (a header's column names), else quoted as `quoteValue` does. */
export function plainOrQuoted(text: string, max = 40): string {
  // eslint-disable-next-line no-control-regex
  return text.length <= max && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029"]/.test(text) ? text : quoteValue(text, max);
}

/** The first few values quoted, and how many more there are ("a", "b", "c" and 199,997 more). */
export function quoteFew(values: readonly string[], few = 5): string {
  const shown = values.slice(0, few).map((v) => quoteValue(v));
  return values.length > few ? `${shown.join(', ')} and ${(values.length - few).toLocaleString('en-US')} more` : shown.join(', ');
}

/**
 * An error message made safe for a terminal, whatever value slipped into it:
 * control characters escaped (line breaks kept), and at most `max` characters.
 */
export function printable(message: string, max = 2000): string {
  // eslint-disable-next-line no-control-regex
  const safe = message.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return safe.length > max ? `${safe.slice(0, max)}… (${safe.length.toLocaleString('en-US')} characters)` : safe;
}
