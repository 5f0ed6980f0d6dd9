import { editedImports } from '../store/importedEdits.js';
import { inPlaceOfCopyJson } from './inPlaceOfCopy.js';
import type { SessionReport } from './sessionReport.js';

/**
 * A session report as JSON: what `dicerig report --json` prints (with the
 * files it wrote) and the fleet dashboard links to, one shape for both.
 */
export function reportJson(report: SessionReport) {
  const s = report.session;
  const edits = editedImports(s.configJson);
  return {
    session: { id: s.id, name: s.name, simulated: s.simulated, origin: s.origin, state: s.state, headHash: s.headHash },
    ...(report.fleet !== undefined ? { fleetSession: { id: report.fleet.id, localId: report.fleet.localId, originHost: report.fleet.originHost, originDb: report.fleet.originDb, campaign: report.fleet.campaign, copyOf: report.fleet.copyOf } } : {}),
    ...(report.campaign !== undefined ? { campaignFinding: report.campaign } : {}),
    // Asked for a fleet copy: this is the report of the session whose rolls it holds, in its place (the copy has no verdicts of its own).
    inPlaceOf: inPlaceOfCopyJson(report.inPlaceOf),
    // Not a session's evidence: an import of an edited export (the user's own rolls).
    edited: edits.length > 0 ? edits : null,
    settings: {
      alpha: report.analysis.alpha,
      delta: report.analysis.delta,
      multiplicity: report.analysis.multiplicity,
      serialAlpha: report.analysis.serialAlpha,
      // The verdicts are the session's own (errorControl below): these settings made only the descriptive figures.
      ...(report.verdicts !== null ? { appliesTo: 'descriptive figures only: the verdicts are the session’s own, under errorControl' } : {}),
    },
    dice: report.dice.map((d) => ({
      label: d.analysis.label,
      type: d.analysis.die.id,
      // As the verdict counts them (read or labelled, and unresolved), with the unresolved ones said.
      rolls: d.analysis.n + (d.resolution?.unresolved ?? 0),
      unresolved: d.resolution?.unresolved ?? 0,
      verdict: d.analysis.verdict.kind,
      sentence: d.analysis.sentence,
      certifiedWithin: d.certifiedBound,
      anytime: d.analysis.anytime,
      ...(d.stored ? { sessionVerdict: d.stored } : {}),
      ...(d.alsoRolledIn ? { alsoRolledIn: d.alsoRolledIn.others } : {}),
      ...(d.correctedSince ? { correctedSince: d.correctedSince } : {}),
      game: d.analysis.game.map((g) => ({ name: g.figure.name, rate: g.result.rate, expected: g.result.expected, delta: g.result.delta })),
    })),
    rigHealth: report.rigHealth,
    ...(report.verdicts ? { errorControl: report.verdicts.errorControl } : {}),
    ...(report.rollsSinceVerdicts > 0 ? { rollsSinceVerdicts: report.rollsSinceVerdicts } : {}),
    resolution: report.resolution,
  };
}
