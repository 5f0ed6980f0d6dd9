/** The campaign's status and report as plain text. */
import type { CampaignAnalysis } from '../../analysis/campaign/campaignAnalysis.js';
import { thresholdWords } from '../../analysis/campaign/campaignErrorControl.js';
import { formatCount, formatLogScientific, shellWord, signedPercent } from '../../core/format.js';
import { commandUrl, redactUrl } from '../../fleet/connect.js';
import { renderTable } from '../../core/textTable.js';
import type { CampaignSessionRow, CampaignUnresolvedCount } from '../../fleet/campaignStore.js';
import { rigBiasedLines, rigProgress, rigsAlikeLine, sessionsToReview, type SessionToReview, type StatusFigures } from '../../report/fleetCampaign.js';

export function formatCampaignStatus(f: StatusFigures): string {
  const rows = rigProgress(f).map((p) => [`rig ${p.rig}`, String(p.done), String(p.claimed), String(p.pending), formatCount(p.throws), p.holding.length > 0 ? p.holding.join(' ') : '-']);
  const done = f.legs.filter((l) => l.state === 'done').length;
  return (
    `Campaign ${f.campaign.name}: ${done} of ${f.legs.length} legs done (${f.batches.length} batch${f.batches.length === 1 ? '' : 'es'} taken).\n` +
    renderTable(['rig', 'done', 'rolling', 'to do', 'throws synced', 'dice in the rig now'], rows, 1) +
    (done === f.legs.length ? 'Every leg is done: dicerig campaign report shows the verdicts.\n' : '')
  );
}

/** The sessions to review before a rig or die can be judged, as commands for each rig's host. */
export function reviewHint(toReview: readonly SessionToReview[]): string {
  if (toReview.length === 0) return '';
  // The rig's store is seldom the default one: the command names it, and the host it is on.
  const lines = toReview.map(
    (s) => `  rig ${s.rig}${s.host !== undefined ? ` (on ${s.host})` : ''}: dicerig review ${shellWord(s.sessionName)}${s.store !== undefined ? ` --db ${shellWord(s.store)}` : ''}   (${formatCount(s.unresolved)} unresolved)`,
  );
  return `\nTo settle them, label the unresolved rolls on each rig's host, then sync (dicerig sync --to <fleet URL>):\n${lines.join('\n')}\n`;
}

/** The level each type's rigs are flagged at, as used: alpha, or its share when the campaign has several die types. */
function rigThreshold(a: CampaignAnalysis): string {
  const e = a.errorControl;
  return e.dieTypes === 1 ? thresholdWords(e.rigAlphaPerType) : `${thresholdWords(e.rigAlphaPerType)} (α = ${thresholdWords(e.alpha)} split over the ${e.dieTypes} die types)`;
}

export function formatCampaignReport(name: string, sessions: readonly CampaignSessionRow[], a: CampaignAnalysis, unresolved: readonly CampaignUnresolvedCount[] = []): string {
  const out: string[] = [];
  const synced = sessions.filter((s) => s.fleetSession !== null);
  out.push(`Campaign ${name}: ${sessions.length} session${sessions.length === 1 ? '' : 's'} (${synced.length} synced), ${formatCount(synced.reduce((x, s) => x + s.throwCount, 0))} throws in the fleet store.\n`);
  const [first, ...rest] = a.errorControl.lines;
  out.push(`Error control: ${first}\n${rest.map((l) => `  ${l}\n`).join('')}`);
  out.push(`\nRig effects (a rig that favours a face on the dice it shares with other rigs; each rig vs the rest, generalised CMH within each die; flagged one at a time while p × rigs still compared ≤ ${rigThreshold(a)}, Holm):\n`);
  for (const t of a.types) {
    const rows = t.rigs.versusRest.map((r) => {
      const top = r.faces.reduce((best, f) => (f.z > best.z ? f : best));
      return [`rig ${r.rig}`, formatCount(r.rolls), r.df === 0 ? '-' : formatLogScientific(r.logP), r.favouredFace === undefined ? '-' : `${top.face} (${signedPercent(top.excess)}, z ${top.z.toFixed(1)})`];
    });
    out.push(`  ${rigsAlikeLine(t)}\n`);
    out.push(renderTable(['rig vs rest', 'rolls', 'p', 'face most above its dice'], rows, 1, '    '));
  }
  if (a.biasedRigs.length === 0) out.push(a.unclearRigs.length === 0 ? '  No rig is found biased.\n' : '  No rig is found biased yet: an unclear rig below waits for its unresolved rolls to be reviewed.\n');
  for (const b of rigBiasedLines(a.biasedRigs)) out.push(`  ${b.text}\n`);
  for (const u of a.unclearRigs) out.push(`  RIG UNCLEAR: ${u.reason} (${u.die} dice). Its sessions' verdicts stand.\n`);
  out.push(
    `\nThe campaign's verdict for each die (its rolls on the trusted rigs pooled: G test against its odds, Holm across all ${a.errorControl.dice} dice of the box at ${thresholdWords(a.alpha)}; descriptive where a session stopped early; a die with unresolved rolls is UNFAIR only if it is whatever they were):\n`,
  );
  const verdictRows = a.verdicts.map((v) => [v.label, v.die, v.kind, v.rigs.length > 0 ? v.rigs.join(', ') : '-', formatCount(v.rolls), formatCount(v.unresolved), v.pHolm === null ? '-' : v.pHolm.toPrecision(2)]);
  out.push(renderTable(['die', 'type', 'verdict', 'trusted rigs', 'rolls', 'unresolved', 'p (Holm)'], verdictRows, 4, '  '));
  const width = Math.max(0, ...a.verdicts.map((v) => v.label.length));
  for (const v of a.verdicts) {
    out.push(`  ${`${v.label}:`.padEnd(width + 1)} ${v.sentence}\n`);
    for (const d of v.disagreements) out.push(`  ${' '.repeat(width + 1)} ${d}\n`);
  }
  // The legs in box order, each die's rigs together: the detail under its verdict.
  const order = new Map(a.verdicts.map((v, i) => [v.label, i]));
  const legs = [...a.legs].sort((x, y) => (order.get(x.label) ?? 0) - (order.get(y.label) ?? 0) || x.rig.localeCompare(y.rig, undefined, { numeric: true }));
  out.push("\nEach die on every rig it visited (its legs: each session's own verdict once it has finished, at that session's α, PENDING before; RIG_SUSPECT where the rig is biased): detail, not the campaign's verdict.\n");
  const legRows = legs.map((l) => [l.label, `rig ${l.rig}`, formatCount(l.rolls), l.kind, l.sessionKind !== undefined ? `session said ${l.sessionKind}` : '']);
  out.push(renderTable(['die', 'rig', 'rolls', 'verdict', ''], legRows, 2, '  '));
  out.push(reviewHint(sessionsToReview(sessions, unresolved, a)));
  return out.join('');
}

/**
 * The rig host's command to run again (what Ctrl-C's summary suggests to resume a batch): each word quoted for the
 * shell, the fleet URL (`--fleet`) without its password, which is given again by PGPASSWORD or ~/.pgpass.
 */
export function rerunCommand(words: readonly string[], fleetUrl: string): string {
  return ['dicerig', ...words].map((w) => shellWord(w === fleetUrl ? commandUrl(redactUrl(w)).url : w)).join(' ');
}
