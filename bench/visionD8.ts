/**
 * X-Wing d8 reading figures: the shipped default profile on simulated frames
 * under the held-out `evening` lighting and seeds no profile was made from —
 * accuracy, decline rate, confusion matrix — and the time to read one die and
 * a whole 1280x720 frame of four dice. Prints; asserts nothing.
 */
import { defaultProfilePath, readProfileFile } from '../src/vision-io/profileFile.js';
import { SimulatedCamera } from '../src/camera/sim/simulatedCamera.js';
import { simDieBox, simDieClass } from '../src/camera/sim/writeLabelledFolder.js';
import { D8Reader } from '../src/vision/d8/d8Reader.js';
import { evaluateLabelledCrops, formatConfusionMatrix } from '../src/vision/labelledEval.js';
import type { LabelledItem } from '../src/vision/labelledEval.js';
import { defaultLocateOptions, HEXAGON_AREA_FACTOR, locateDice } from '../src/vision/locate.js';
import { cropForBox } from '../src/vision/photoCrops.js';
import { defaultCockedLimits, readFrame } from '../src/vision/pipeline.js';
import { median, timeIt } from './measure.js';

export async function runVisionD8Bench(): Promise<void> {
  const profile = await readProfileFile(defaultProfilePath('xwing'));
  const reader = new D8Reader(profile);
  const items: LabelledItem[] = [];
  for (let session = 0; session < 6; session++) {
    const cam = new SimulatedCamera({ seed: 80_000 + session, lighting: 'evening', channels: 6, dicePerChannel: 2, dice: ['red', 'green'], cockedRate: 0.08 });
    for (let f = 0; f < 10; f++) {
      const { image, truth } = cam.still();
      for (const d of truth.dice) items.push({ crop: cropForBox(image, simDieBox(d), false), label: simDieClass(d), group: `s${session}-f${f}` });
    }
  }
  const e = evaluateLabelledCrops(items, reader, profile.classes, () => performance.now());
  const r = e.report;
  console.log(`\nvision d8: default X-Wing profile ${reader.classifierVersion} on held-out lighting (evening) and seeds (80000..80005), labelled boxes as crops`);
  console.log(
    `vision d8: ${r.total} dice, ${r.read} read, ${r.correct} correct (accuracy among read ${(r.accuracyAmongRead * 100).toFixed(2)} %), ` +
      `declined ${(r.declineRate * 100).toFixed(1)} % (${r.cocked} cocked, ${r.declined - r.cocked} unreadable), misread ${r.errors.length}`,
  );
  for (const d of e.perDie) {
    console.log(`vision d8:   ${d.die.padEnd(6)} ${d.total} dice, ${d.correct} correct, ${d.cocked} cocked, ${d.unreadable} unreadable, ${d.wrong} misread`);
  }
  console.log(formatConfusionMatrix(e.confusion));
  console.log(`vision d8: read time per die (crop ~100x100 px): median ${(e.msPerRead ?? Number.NaN).toFixed(2)} ms`);

  // A whole frame: locate four d8s on a 1280x720 frame and read them.
  const size = 72;
  const cam = new SimulatedCamera({ seed: 81_000, lighting: 'evening', channels: 4, dice: ['red', 'green'], cockedRate: 0 });
  const reference = cam.emptyPlatform();
  const frames = Array.from({ length: 20 }, () => cam.still().image);
  const options = { locate: { ...defaultLocateOptions, expectedDieArea: HEXAGON_AREA_FACTOR * size * size }, cocked: defaultCockedLimits, dieSizePx: size, cropScale: 1.5 };
  let i = 0;
  const frameMs = timeIt(100, () => readFrame(frames[i++ % frames.length]!, reference, cam.layout.channels, reader, options));
  let j = 0;
  const locateMs = timeIt(100, () => locateDice(frames[j++ % frames.length]!, reference, cam.layout.channels, options.locate));
  console.log(`vision d8: locate and read 4 d8s on a 1280x720 frame: median ${median(frameMs).toFixed(2)} ms (locating alone ${median(locateMs).toFixed(2)} ms)`);
}
