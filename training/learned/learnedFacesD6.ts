/**
 * Measurement (development time only): faces learned on a user's own labelled D6s (`calibrate --die d6
 * --learn-faces`), on real photographed dice. The tray photos the shipped D6 networks never saw (`heldOutPhotos`) are
 * read as a D6 check reads crops: each die cut round its labelled box (1.3 times its side) and read by the pip counter,
 * then every photo's dice read again with faces learned on the other photos' (5 folds, `d6CrossFit.ts`). Photos have
 * no empty platform, so no blob checks; the re-read takes the median die side for all dice.
 *
 *   node --import tsx training/learned/learnedFacesD6.ts ../shared/datasets/d6-tray-photos
 */
import { d6Die } from '../../src/dice/catalogue.js';
import { d6Nets } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { CombinedD6Reader } from '../../src/vision/d6/combinedReader.js';
import { crossFitD6Reads, type CheckedD6Read } from '../../src/vision/calibration/d6CrossFit.js';
import { heldOutTrayDice } from './trayDice.js';

const dir = process.argv[2] ?? '../shared/datasets/d6-tray-photos';
const tray = await heldOutTrayDice(dir);
const pips = new D6PipReader();
const reads: CheckedD6Read[] = tray.dice.map((d) => ({ group: d.photo, truth: d.label, read: pips.read({ image: d.crop, sizePx: d.side }) }));
// The photos' dice differ in size: the re-read takes the median side.
const sizes = reads.map((r) => r.read.crop.width / 1.3).sort((a, b) => a - b);
const sizePx = sizes[Math.floor(sizes.length / 2)] as number;
const fit = crossFitD6Reads(reads, { nets: d6Nets(shippedD6Net), netsVersion: shippedD6Net.version, readerWith: (o) => new CombinedD6Reader(new D6PipReader(), o, shippedD6Net.combined), seen: (l) => l, sizePx, folds: 5, seed: 1, minPerFace: 10 });
/** Dice read, wrong and declined, and each face's declines. */
function score(rs: readonly CheckedD6Read[]): string {
  const read = rs.filter((r) => r.read.status === 'read');
  const wrong = read.filter((r) => r.read.symbol !== r.truth);
  const perFace = d6Die.symbols.map((f) => {
    const x = rs.filter((r) => r.truth === f);
    return `${f}:${x.filter((r) => r.read.status !== 'read').length}/${x.length}`;
  });
  const correct = (100 * (read.length - wrong.length)) / Math.max(1, read.length);
  const declined = 100 * (1 - read.length / rs.length);
  return `${rs.length} dice, ${read.length} read, ${wrong.length} wrong (${correct.toFixed(2)} % correct), ${declined.toFixed(1)} % declined; per face declined ${perFace.join(' ')}; wrong: ${wrong.map((r) => `${r.truth}->${r.read.symbol}`).join(' ')}`;
}
console.log(tray.photos, 'held-out photos; median side', sizePx.toFixed(1));
console.log('pips alone        ', score(reads));
console.log('pips + learned    ', score(fit.reads));
