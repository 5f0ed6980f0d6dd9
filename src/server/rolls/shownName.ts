/**
 * A viewer's name as the overlay, the dashboard and the chat reply show it. Control characters (line breaks, terminal
 * codes, C1 controls) become spaces; bidirectional formatting characters (U+202A-U+202E, U+2066-U+2069, U+200E,
 * U+200F, U+061C) are dropped: a name holding U+202E would otherwise turn the rest of its line around ("@viewer
 * rolled..." shown backwards, or a result made to read as another). Names in right-to-left scripts need none of
 * them to show right.
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x1f\x7f-\x9f]+/g;
const BIDI_FORMATTING = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** The name to show, at most `max` characters; empty when nothing showable is left. */
export function shownName(raw: string, max = 40): string {
  return raw.replace(BIDI_FORMATTING, '').replace(CONTROLS, ' ').trim().slice(0, max).trim();
}
