// A viewer's name as the pages show it. Bidirectional controls (U+202E and the like) are dropped, so a name cannot
// turn the text after it backwards, and the name goes in a <bdi>, so a right-to-left name keeps its own direction
// without reordering the request and result beside it.
import { el } from './live.js';

const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function plainName(by) {
  return String(by ?? '').replace(BIDI_CONTROLS, '');
}

/** The name isolated in a <bdi>, or nothing when there is no name. */
export function nameElement(by) {
  const name = plainName(by);
  return name === '' ? null : el('bdi', { class: 'by', text: name });
}
