/**
 * A fleet copy's report: an import of an export of a session the fleet holds too has no verdicts of its own (its
 * rolls count once, as that session's), so `dicerig report COPY` reports that session in its place, its verdicts as
 * its own report shows them, and says so first in the text, at the head of the HTML page and in the JSON
 * (`inPlaceOf`). A second set of verdicts made on the same rolls could only differ from the fleet's one.
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
