/**
 * Measurement (development time only): how pure the learned guided calibration's groups would be on a labelled
 * folder's dice, cut from their labelled boxes, grouped as `embeddingGroups.ts` groups them.
 *
 *   node --import tsx training/learned/groupPurity.ts DIR [K]
 *
 * `groupingDiceOf` is also what test/vision/embeddingGroups.test.ts groups the render fixtures with.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { learnedCutter, shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import { LearnedReader } from '../../src/vision/learned/reader.js';
import type { LearnedModel } from '../../src/vision/learned/model.js';
import { dieEmbedding, doubtfulDice, embeddingSplit, groupByEmbedding, sameDieFaces } from '../../src/vision/calibration/embeddingGroups.js';
import { nameGroups, SPLIT_NAME } from '../../src/vision/calibration/groupNaming.js';
import { greenDefenseDie, redAttackDie } from '../../src/dice/catalogue.js';
import type { DieType } from '../../src/dice/types.js';
import type { DieLook, EmbeddingGroup } from '../../src/vision/calibration/embeddingGroups.js';
import { seededRandom } from '../../src/stats/random.js';
import { lookOf } from '../../src/vision/calibration/guidedLearned.js';
import { decodeImageFile } from '../../src/camera/decode.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';

export interface GroupingDie {
  readonly label: string;
  readonly embedding: Float32Array;
  readonly look: DieLook;
}

/** The dice of a labelled folder as the guided calibration sees them: cut from their boxes, embedded, their look judged. */
export async function groupingDiceOf(dir: string): Promise<GroupingDie[]> {
  const model = shippedLearnedModels['xwing'] as LearnedModel;
  const reader = new LearnedReader(model);
  const cut = learnedCutter(model, 54);
  const folder = await readLabelledFolder(join(dir, 'images'));
  const dice: GroupingDie[] = [];
  for (const photo of folder.photos) {
    const image = await decodeImageFile(photo.imagePath);
    for (const b of photo.boxes) {
      const box = { x: b.box.x * image.width, y: b.box.y * image.height, width: b.box.width * image.width, height: b.box.height * image.height };
      const crop = cut(image, box);
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      dice.push({ label: b.className, embedding: dieEmbedding(reader, crop), look: lookOf(reader, crop, image, centre, Math.max(box.width, box.height)) });
    }
  }
  return dice;
}

/** What a hasty person calls each die: the name of what most of its group shows (as at the group's picture). */
export function majorityNames(dice: readonly GroupingDie[], groups: readonly EmbeddingGroup[]): string[] {
  const names = new Array<string>(dice.length);
  for (const g of groups) {
    const counts = new Map<string, number>();
    for (const m of g.members) counts.set((dice[m] as GroupingDie).label, (counts.get((dice[m] as GroupingDie).label) ?? 0) + 1);
    const name = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
    for (const m of g.members) names[m] = name;
  }
  return names;
}

async function main(dir: string, k: number): Promise<void> {
  const dice = await groupingDiceOf(dir);
  const groups = groupByEmbedding(dice.map((d) => d.embedding), dice.map((d) => d.look), k, seededRandom(1));
  for (const g of groups) {
    const labels = new Set(g.members.map((m) => dice[m]!.label));
    if (labels.size > 1 || g.look.tilted) console.log(`  group ${g.id} (${JSON.stringify(g.look)}): ${[...labels].map((l) => `${l} ${g.members.filter((m) => dice[m]!.label === l).length}`).join(', ')}`);
  }
  const names = majorityNames(dice, groups);
  const wrong = names.filter((n, i) => n !== dice[i]!.label).length;
  console.log(`${dice.length} dice in ${groups.length} groups: ${wrong} would be labelled wrong by their group's majority name`);
  // Named by majority, then the dice the network sees nearer another name, listed for the person to check.
  const out = doubtfulDice(dice.map((d) => d.embedding), names, sameDieFaces);
  const wrongOut = [...out.keys()].filter((i) => names[i] !== dice[i]!.label).length;
  const careful = await carefulNaming(dice, k);
  console.log(`a careful person splitting mixed groups: ${careful.questions} questions (${careful.splits} splits), ${careful.named} dice named, ${careful.wrong} wrong`);
  console.log(`shown as doubtful (nearer another name): ${out.size} (${wrongOut} of them named wrong); named wrong and not shown: ${wrong - wrongOut}`);
}

/**
 * A careful person at the terminal: names the face a group shows, or answers split where it shows more than one (a
 * one-die group always shows one). Returns the questions asked and the dice labelled wrong.
 */
export async function carefulNaming(
  dice: readonly GroupingDie[],
  k: number,
  types: readonly DieType[] = [redAttackDie, greenDefenseDie],
  labelOf: (name: string) => string = (name) => name,
): Promise<{ questions: number; splits: number; wrong: number; named: number }> {
  const embeddings = dice.map((d) => d.embedding);
  const groups = groupByEmbedding(embeddings, dice.map((d) => d.look), k, seededRandom(1));
  const members = new Map<number, readonly number[]>();
  let questions = 0;
  const named = await nameGroups(
    groups.map((g) => ({ id: g.id, members: g.members, looksCocked: g.look.tilted || g.look.elongated })),
    {
      view: (g) => {
        members.set(g.id, g.members);
        return { id: g.id, size: g.members.length, typical: [], looksCocked: g.looksCocked };
      },
      split: embeddingSplit(embeddings, 1),
    },
    {
      log: () => undefined,
      prompt: (q) => {
        questions++;
        const labels = new Set((members.get(Number(/^Group (\d+):/.exec(q)?.[1])) ?? []).map((m) => (dice[m] as GroupingDie).label));
        return Promise.resolve(labels.size > 1 ? SPLIT_NAME : ([...labels][0] ?? 'skip'));
      },
    },
    types,
  );
  let wrong = 0;
  let count = 0;
  for (const { group, view } of named) {
    if (view.name === SPLIT_NAME) continue;
    for (const m of group.members) {
      count++;
      if ((dice[m] as GroupingDie).label !== labelOf(view.name as string)) wrong++;
    }
  }
  return { questions, splits: named.filter((n) => n.view.name === SPLIT_NAME).length, wrong, named: count };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv[2] as string, Number(process.argv[3] ?? 21));
