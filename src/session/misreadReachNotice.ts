/**
 * Said before the rig is touched: when the misread bounds a die type's verdicts allow for are so wide that no die of
 * that type can be certified FAIR_WITHIN the session's margin, however long it rolls (`stats/misreadReach.ts`). A
 * calibration of 150 images holds some 7-35 validation reads of a face, which bound its misreads at 8-35 %: the session
 * would roll to its budget and end INCONCLUSIVE for a reason its report could only state afterwards.
 */
import type { DieType } from '../dice/types.js';
import { formatCount, percentFigures } from '../core/format.js';
import type { MisreadAssumption } from '../stats/misreadRate.js';
import { certifiableMarginLimit, readsToBoundMisreads, validationReadsFor } from '../stats/misreadReach.js';

const pct = (x: number): string => percentFigures(x, 3);

/**
 * The notice for dice of `type` counted in categories (`faces` or `symbols`) of these odds, or undefined when their
 * verdicts can reach `delta`; `narrow` says how to give the measure more reads.
 */
export function misreadReachNotice(
  type: Pick<DieType, 'name'>,
  counted: 'faces' | 'symbols',
  expected: readonly number[],
  misreads: MisreadAssumption,
  delta: number,
  narrow: string,
): string | undefined {
  const faces = misreads.faces;
  if (faces === null || faces.length === 0) return undefined;
  const limit = certifiableMarginLimit(expected, faces.map((f) => f.bound));
  if (limit < delta) return undefined;
  const widest = faces.reduce((a, b) => (b.bound > a.bound ? b : a));
  const confidence = misreads.confidence ?? 0.95;
  const { rate, reads: ownReads } = validationReadsFor(expected, delta, confidence);
  // A measure of cocked dice read as faces adds its bound to every face's: half the rate is left to each. The dice
  // held back in all outnumber any face's reads, so reads enough for a face's half bound the cocked half too.
  const cocked = misreads.cocked;
  const reads = cocked === undefined ? ownReads : readsToBoundMisreads(rate / 2, confidence);
  const fewest = faces.reduce((a, b) => (b.read < a.read ? b : a));
  const cockedToo = cocked === undefined ? '' : ` and no cocked die read as a face (${formatCount(cocked.readAsFace)} of ${formatCount(cocked.dice)} dice were, bounding such reads at ${pct(cocked.bound)})`;
  return (
    `${type.name}: the misread bounds its verdicts allow for (${misreads.source}; ${widest.label} up to ${pct(widest.bound)}, ` +
    `${widest.misread} wrong in ${formatCount(widest.read)} reads) let no die of this type be certified within ±${pct(delta)}, ` +
    `however long it rolls: even a fair die read without a misread gets no closer than ±${pct(limit)}. It can still be found unfair ` +
    `where its deviation is larger than misreads could explain. To certify within ±${pct(delta)}, every ${counted === 'faces' ? 'face' : 'symbol'} needs ` +
    `about ${formatCount(reads)} reads with none wrong (${fewest.label} has ${formatCount(fewest.read)})${cockedToo}: ${narrow}; or set a wider stopping.delta.`
  );
}
