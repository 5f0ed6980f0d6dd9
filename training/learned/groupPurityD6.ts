/**
 * Measurement (development time only): how pure the guided D6 check's groups would be on real photographed D6s,
 * each die cut around its labelled box, embedded by the shipped D6 networks (`d6/netEmbedding.ts`) and grouped as
 * `guidedD6.ts` groups them (every die taken as flat: photos have no empty platform for the blob checks). Only the
 * photos the networks never saw (`heldOutPhotos`) are grouped.
 *
 *   node --import tsx training/learned/groupPurityD6.ts ../shared/datasets/d6-tray-photos [K]
 */
import { d6Die } from '../../src/dice/catalogue.js';
import { seededRandom } from '../../src/stats/random.js';
import { doubtfulDice, groupByEmbedding } from '../../src/vision/calibration/embeddingGroups.js';
import { d6NetView, likeliestFace } from '../../src/vision/d6/netEmbedding.js';
import { d6Nets } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { carefulNaming, majorityNames, type GroupingDie } from './groupPurity.js';
import { heldOutTrayDice } from './trayDice.js';

async function main(dir: string, k: number): Promise<void> {
  const nets = d6Nets(shippedD6Net);
  const tray = await heldOutTrayDice(dir);
  const pips = new D6PipReader();
  const dice: GroupingDie[] = [];
  const reads: string[] = [];
  const pipReads: (string | undefined)[] = [];
  for (const d of tray.dice) {
    const view = d6NetView(nets, { image: d.crop, sizePx: d.side });
    dice.push({ label: d.label, embedding: view.embedding, look: { tilted: false, elongated: false } });
    reads.push(likeliestFace(view));
    const pip = pips.read({ image: d.crop, sizePx: d.side });
    pipReads.push(pip.status === 'read' ? pip.symbol : undefined);
  }
  const groups = groupByEmbedding(dice.map((d) => d.embedding), dice.map((d) => d.look), k, seededRandom(1));
  for (const g of groups) {
    const labels = new Set(g.members.map((m) => dice[m]!.label));
    if (labels.size > 1) console.log(`  group ${g.id}: ${[...labels].map((l) => `${l} ${g.members.filter((m) => dice[m]!.label === l).length}`).join(', ')}`);
  }
  const names = majorityNames(dice, groups);
  const wrong = names.filter((n, i) => n !== dice[i]!.label).length;
  console.log(`${tray.photos} held-out photos, ${dice.length} flat dice in ${groups.length} groups: ${wrong} would be labelled wrong by their group's majority name`);
  const out = doubtfulDice(dice.map((d) => d.embedding), names, (a, b) => a !== 'cocked' && b !== 'cocked');
  const wrongOut = [...out.keys()].filter((i) => names[i] !== dice[i]!.label).length;
  console.log(`shown as doubtful by the networks' embedding (nearer another name): ${out.size} (${wrongOut} of them named wrong)`);
  const readOther = dice.flatMap((d, i) => (reads[i] !== names[i] ? [i] : []));
  console.log(`shown as doubtful by the networks' read (another face than the name): ${readOther.length} (${readOther.filter((i) => names[i] !== dice[i]!.label).length} of them named wrong)`);
  // The networks' read as a doubt only where the pip counter does not read the die as named (guidedD6.ts since 2026-12-05).
  const unconfirmed = readOther.filter((i) => pipReads[i] !== names[i]);
  console.log(`  of them, the pip counter does not read as named: ${unconfirmed.length} (${unconfirmed.filter((i) => names[i] !== dice[i]!.label).length} of them named wrong)`);
  const either = new Set([...out.keys(), ...readOther]);
  console.log(`either: ${either.size} shown, ${[...either].filter((i) => names[i] !== dice[i]!.label).length} of the ${wrong} named wrong`);
  const careful = await carefulNaming(dice, k, [d6Die], (name) => name.replace(/^d6-/, ''));
  console.log(`a careful person splitting mixed groups: ${careful.questions} questions (${careful.splits} splits), ${careful.named} dice named, ${careful.wrong} wrong`);
}

await main(process.argv[2] as string, Number(process.argv[3] ?? 18));
