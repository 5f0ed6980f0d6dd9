/**
 * How each die's rolls were resolved, in the HTML report: per die the rolls
 * read (and of them, those a re-read resolved when the session's events say),
 * labelled by a person and still unresolved; per face, read and reviewed. A
 * verdict holds whatever the unresolved rolls were, so their count is part of
 * what it says.
 */
import { formatCount } from '../core/format.js';
import { escapeHtml } from './escape.js';
import { htmlTable } from './htmlTable.js';
import type { DieResolution } from './sessionReport.js';

const sum = (r: DieResolution, key: 'read' | 'reviewed'): number => r.faces.reduce((n, f) => n + f[key], 0);

/** One row per die: read, of them re-read-resolved, reviewed, unresolved. */
export function resolutionTable(resolution: readonly DieResolution[]): string {
  if (resolution.length === 0) return '';
  const rows = resolution.map((r) => ({
    attrs: { 'data-resolution-die': r.label },
    cells: [
      r.label,
      { text: formatCount(sum(r, 'read')), num: true, attrs: { 'data-col': 'read' } },
      { text: r.rereadResolved === undefined ? '—' : formatCount(r.rereadResolved), num: true, attrs: { 'data-col': 'reread' } },
      { text: formatCount(sum(r, 'reviewed')), num: true, attrs: { 'data-col': 'reviewed' } },
      { text: formatCount(r.unresolved) + (r.cannotTell ? ` (${formatCount(r.cannotTell)} nobody could tell)` : ''), num: true, attrs: { 'data-col': 'unresolved' } },
    ],
  }));
  return (
    htmlTable(
      ['die', { text: 'read', num: true }, { text: 'of them after a re-read', num: true }, { text: 'reviewed by a person', num: true }, { text: 'unresolved', num: true }],
      rows,
      'resolution-table',
      'How each die’s rolls were resolved: read, re-read, reviewed, unresolved',
    ) + '\n<p class="note">Declined dice, and dice not found in their channel, were read again (further frames, the light stepped up and down) before anything moved; those still unread are kept as unresolved rolls in their places, and each verdict holds whatever they were. “—”: the session’s events do not say.</p>'
  );
}

/** One die's faces: read and reviewed, and its unresolved rolls (face unknown). */
export function faceResolutionTable(r: DieResolution | undefined): string {
  if (r === undefined) return '';
  const rows = r.faces.map((f) => ({
    attrs: { 'data-face': f.face },
    cells: [f.face, { text: formatCount(f.read), num: true, attrs: { 'data-col': 'read' } }, { text: formatCount(f.reviewed), num: true, attrs: { 'data-col': 'reviewed' } }],
  }));
  const table = htmlTable(['face', { text: 'read', num: true }, { text: 'reviewed by a person', num: true }], rows, 'face-resolution-table', `${r.label}: rolls read and reviewed by face`);
  const untold = r.cannotTell ?? 0;
  const waiting = r.unresolved - untold;
  const why =
    untold === 0
      ? 'face not known until reviewed: dicerig review'
      : `${formatCount(untold)} a person looked at and could not tell${waiting > 0 ? `, ${formatCount(waiting)} not yet reviewed: dicerig review` : ''}`;
  const open = `<p class="note" data-col="unresolved" data-value="${r.unresolved}">${formatCount(r.unresolved)} unresolved roll${r.unresolved === 1 ? '' : 's'} (${why}).</p>`;
  return `<h3>How the rolls were read</h3>\n<div class="face-resolution" data-die="${escapeHtml(r.label)}">\n${table}\n${open}\n</div>`;
}
