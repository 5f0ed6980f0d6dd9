/**
 * A fleet copy's report: an import of an export of a session the fleet holds too has no verdicts of its own (its
 * rolls count once, as that session's), so `dicerig report COPY` reports that session in its place, its verdicts as
 * its own report shows them, and says so first in the text, at the head of the HTML page and in the JSON
 * (`inPlaceOf`). A second set of verdicts made on the same rolls could only differ from the fleet's one. The fleet
 * dashboard's report API answers the same, made by the same functions.
 */
import { describeFleetSession, type FleetSessionInfo } from '../fleet/fleetReader.js';
import type { CopyOf } from '../fleet/copies.js';

/** The copy a report was asked for, and the session whose rolls it holds (reported in its place). */
export interface InPlaceOfCopy {
  readonly copy: FleetSessionInfo;
  readonly copyOf: CopyOf;
}

/** The words a copy's report starts with: which copy, of whose rolls, whose verdicts follow and the command that shows them. */
export function inPlaceOfCopyWords(p: InPlaceOfCopy): string {
  const of = p.copyOf.of;
  return (
    `${describeFleetSession(p.copy)} is ${p.copyOf.why}: its rolls count once, as fleet session ${of}'s, so it has no verdicts of its own. ` +
    `This is fleet session ${of}'s report in its place: the verdicts below are that session's, as its own report shows them (dicerig report ${of} --db URL).`
  );
}

/** As `report --json` gives it: null for any session reported as itself. */
export function inPlaceOfCopyJson(p: InPlaceOfCopy | undefined) {
  if (p === undefined) return null;
  const c = p.copy;
  return { fleetSession: c.id, localId: c.localId, originHost: c.originHost, originDb: c.originDb, why: p.copyOf.why, reportedAs: p.copyOf.of };
}

/** The report of `original` (the session `p` copies) as `p`'s report: the same report, saying whose it is and why. */
// Generic, not SessionReport: sessionReport.ts imports this file's types (no import cycle).
export function reportInPlaceOfCopy<R extends object>(original: R, p: InPlaceOfCopy): R & { readonly inPlaceOf: InPlaceOfCopy } {
  return { ...original, inPlaceOf: p };
}

/** Why a copy has no report when the session it copies has none (`why`): never the copy's own verdicts instead, they are not the fleet's. */
export function inPlaceOfCopyFailedWords(p: InPlaceOfCopy, why: string): string {
  const of = p.copyOf.of;
  return `${describeFleetSession(p.copy)} is ${p.copyOf.why}: it has no verdicts of its own, and fleet session ${of}'s report, whose verdicts they are, could not be made (${why}); \`dicerig report ${of} --db URL\` writes it once it can.`;
}

/** Why a copy of a copy has no report (the fleet holds no session whose verdicts its rolls would count under). */
export function copyOfCopyWords(p: InPlaceOfCopy, originalCopyOf: CopyOf): string {
  return `fleet session ${p.copyOf.of}, whose rolls ${describeFleetSession(p.copy)} holds, is a copy too (${originalCopyOf.why}): no report is written`;
}
