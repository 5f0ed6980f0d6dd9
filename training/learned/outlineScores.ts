/**
 * The outline check's score on every labelled die of rendered X-Wing folders, as `vision eval --learned` cuts them
 * (the checkout's shipped model, no profile, the lens assumed 54 degrees unless --hfov): the first step of a candidate
 * check's rule (training/README.md), which compares, face by face, the share of flat dice the check scores at or over
 * --at (0.2). Prints each face's flat dice and how many score at or over --at, the cocked dice and how many score under
 * it, and (--dump FILE) one JSON line per die. The chi-square p across the faces is left to SciPy, so that no figure a
 * candidate is judged by comes from this repository's own statistics. Development time only.
 *
 *   npx tsx training/learned/outlineScores.ts --images /work/data/renders/tune-xwing-f3-s52 /work/data/renders/tune-xwing-f2
 *   python3 -c "from scipy.stats import chi2_contingency; print(chi2_contingency(COUNTS)[1])"   (COUNTS: its last line)
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { labelledFolderPaths, readLabelledCrops } from '../../src/vision-io/labelledCrops.js';
import { COCKED_LABEL } from '../../src/vision/labelledEval.js';
import { defaultLearnedReaderOptions, LearnedReader } from '../../src/vision/learned/reader.js';
import { learnedCutter, shippedLearnedModels } from '../../src/vision/learned/shipped.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { images: { type: 'string', multiple: true }, at: { type: 'string', default: '0.2' }, hfov: { type: 'string', default: '54' }, dump: { type: 'string' } },
});
// --images takes the first folder; any further ones follow it (parseArgs wants --images before each otherwise).
const folders = [...(values.images ?? []), ...positionals];
if (folders.length === 0) throw new Error('--images DIR [DIR...] is required: rendered labelled folders');
const at = Number(values.at);
const hfov = Number(values.hfov);
if (!(at > 0 && at < 1)) throw new Error(`--at ${values.at}: a score between 0 and 1`);
if (!(hfov > 0 && hfov < 180)) throw new Error(`--hfov ${values.hfov}: the lens' horizontal field of view in degrees`);
const model = shippedLearnedModels.xwing;
if (!model) throw new Error('no X-Wing learned model is shipped in this checkout');
const reader = new LearnedReader(model, defaultLearnedReaderOptions);
if (model.cockedCheck === undefined) throw new Error(`${model.version} has no outline check`);
const cut = learnedCutter(model, hfov);

const rows: { folder: string; image: string; label: string; score: number }[] = [];
for (const folder of folders) {
  const paths = labelledFolderPaths(folder);
  const { crops } = await readLabelledCrops(paths.images, paths.labels, () => true, 1.3, cut);
  for (const c of crops) {
    const score = reader.outlineScore(c.crop);
    if (score === undefined) throw new Error(`${model.version} has no outline check`);
    rows.push({ folder, image: c.group, label: c.label, score });
  }
  process.stderr.write(`outlineScores: ${folder}: ${crops.length} dice\n`);
}
if (values.dump) writeFileSync(values.dump, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

const faces = [...new Set(rows.filter((r) => r.label !== COCKED_LABEL).map((r) => r.label))].sort();
const counts = faces.map((face) => {
  const of = rows.filter((r) => r.label === face);
  const over = of.filter((r) => r.score >= at).length;
  return { face, over, under: of.length - over };
});
console.log(`${model.version}, check ${model.cockedCheck.version}; flat dice scoring >= ${at}, by face:`);
for (const { face, over, under } of counts) {
  console.log(`  ${face.padEnd(12)} ${String(over).padStart(3)} of ${String(over + under).padStart(3)}  ${((100 * over) / (over + under)).toFixed(1)} %`);
}
const cocked = rows.filter((r) => r.label === COCKED_LABEL);
console.log(`cocked dice scoring under ${at}: ${cocked.filter((r) => r.score < at).length} of ${cocked.length}`);
console.log(`counts for SciPy (over, under) by face: ${JSON.stringify(counts.map(({ over, under }) => [over, under]))}`);
