/**
 * Whether a labelled folder is one `dicerig vision simulate` wrote: its dice are drawn flat by the simulated camera,
 * which the learned networks (trained on 3D renders) read mostly as tilted, so calibrating on it picks the ring reader
 * as `calibrate --camera sim` does. Told by the image names `writeSimLabelledFolder` gives (`sim-SEED-sNNN-fNNN.jpg`):
 * every image in the folder must be so named, so a folder of photos with one such file among them is not taken for one.
 */
import { readdirSync } from 'node:fs';
import { extname } from 'node:path';

const IMAGE = new Set(['.jpg', '.jpeg', '.png']);
const SIM_NAME = /^sim-\d+-s\d{3}-f\d{3}\.(jpg|png)$/;

/** True when `imagesDir` holds images, every one named as the simulated camera's folder names them. */
export function isSimulatedFolder(imagesDir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(imagesDir).filter((n) => IMAGE.has(extname(n).toLowerCase()));
  } catch {
    // An unreadable folder is reported by the reading that follows, with its own error.
    return false;
  }
  return names.length > 0 && names.every((n) => SIM_NAME.test(n));
}
