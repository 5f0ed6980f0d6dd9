/**
 * Gives a labelled folder another renderer's look (src/camera/regrade):
 *
 *   npm run regrade -- --from /work/data/renders/tune-xwing-f3 --to /work/data/stress/tune-f3-filmic --grade filmic --seed 11
 *
 * Regrade both the calibration images and the test images, with different seeds, then calibrate on the one and run
 * `vision eval` on the other: the reader is measured under a look it was never trained or tuned on.
 */
import { parseArgs } from 'node:util';
import { DicerigError } from '../src/core/errors.js';
import { GRADE_NAMES, type GradeName } from '../src/camera/regrade/grade.js';
import { regradeFolder } from '../src/camera/regrade/regradeFolder.js';

const USAGE = `usage: npm run regrade -- --from DIR --to DIR --grade ${GRADE_NAMES.join('|')} [--seed N]`;

function fail(message: string): never {
  process.stderr.write(`regrade-dataset: ${message}\n${USAGE}\n`);
  process.exit(2);
}

const OPTIONS = { from: { type: 'string' }, to: { type: 'string' }, grade: { type: 'string' }, seed: { type: 'string', default: '1' }, help: { type: 'boolean', default: false } } as const;
let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>;
try {
  parsed = parseArgs({ options: OPTIONS });
} catch (err) {
  // An unknown or misspelt option: one line naming it and the usage, not a stack trace.
  fail((err as Error).message);
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.from || !values.to || !values.grade) fail('--from, --to and --grade are needed');
if (!(GRADE_NAMES as string[]).includes(values.grade)) fail(`unknown grade "${values.grade}" (known: ${GRADE_NAMES.join(', ')})`);
const seed = Number(values.seed);
if (!Number.isInteger(seed) || seed < 0) fail(`--seed must be a whole number >= 0, not "${values.seed}"`);
try {
  const started = Date.now();
  const n = await regradeFolder({
    from: values.from,
    to: values.to,
    grade: values.grade as GradeName,
    seed,
    onProgress: (done, total) => {
      if (done % 25 === 0 || done === total) process.stderr.write(`  ${done}/${total}\n`);
    },
  });
  process.stdout.write(`${values.to}: ${n} images regraded (${values.grade}, seed ${seed}) in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
} catch (e) {
  if (e instanceof DicerigError) fail(e.message);
  throw e;
}
