import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImageFile } from '../../src/camera/decode.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { d6NetModel, d6NetModuleSource, defaultTrainD6NetOptions, trainD6Net } from '../../src/vision/d6/trainNet.js';
import type { LabelledCrop } from '../../src/vision/d6/trainNet.js';
import { cropForBox } from '../../src/vision/photoCrops.js';
import { datasetsDir } from '../support/datasets.js';

// Regenerates the shipped D6 network (about 40 minutes on one core), so it only runs when asked:
//   DICERIG_TRAIN_D6_NET=/tmp/netWeights.ts npx vitest run test/vision/photoEvalTrainNet.test.ts
// then copy the file to src/vision/d6/netWeights.ts.
const OUT = process.env['DICERIG_TRAIN_D6_NET'];

describe.skipIf(!OUT)('retraining the shipped D6 network', () => {
  it('trains on photos 1..80 of the tray photos only and reproduces the shipped weights', async () => {
    const folder = await readLabelledFolder(join(datasetsDir(), 'd6-tray-photos', 'images'));
    const crops: LabelledCrop[] = [];
    for (const photo of folder.photos.slice(0, 80)) {
      const image = await decodeImageFile(photo.imagePath);
      for (const b of photo.boxes) crops.push({ image: cropForBox(image, b.box).image, face: b.className });
    }
    const net = trainD6Net(crops, { ...defaultTrainD6NetOptions, onEpoch: (e, loss) => console.log(`epoch ${e}: loss ${loss.toFixed(3)}`) });
    const model = d6NetModel(net, 'photos 1..80 (by sorted name) of d6-tray-photos');
    await writeFile(OUT as string, d6NetModuleSource(model, 'Trained on photos 1..80 of the tray photos only; 81..100 set the combined reader\'s thresholds; 101..200 are held out.'));
    expect(model.version).toBe(shippedD6Net.version);
  }, 4 * 3600_000);
});
