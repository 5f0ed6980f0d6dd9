/**
 * Renders labelled datasets with the 3D synthetic camera (src/camera/render3d):
 *
 *   npm run render -- --dice xwing --split train --count 1500 --out /work/data/renders/train-xwing
 *   npm run render -- --dice d6 --split test --count 300 --out /work/data/renders/test-d6 [--offset 0] [--cocked-rate 0.05] [--cocked-tilt 14,40]
 *
 * Seeds come from the split's range (see src/camera/render3d/README.md), so
 * train, tune and test sets never share a scene or a lighting/platform preset.
 * `--art foreign-1|foreign-2|foreign-3` draws the icons in artwork the reader is never trained on; `--art random` (train split
 * only) gives every die its own icon style (see look.ts).
 * `--cocked-tilt LOW,HIGH` makes cocked dice lean LOW..HIGH degrees (default 14,40): low leans are the hardest to catch.
 * `--cocked-on-die SHARE` is the share of cocked dice that lean on another die rather than a wall, where both are there
 * (default 0.4): dice leaning on dice are the ones the reader most often reads as a face.
 * `--lighting NAME[,NAME]` lights every scene by one of the named presets of the split (presets.ts), opt-in ones
 * such as `ceiling-panel-bright` included; by default a scene draws from the split's own, opt-in ones left out.
 * `--platform NAME[,NAME]` lays every scene's dice on one of the named platform presets of the split, opt-in ones such
 * as `green-baize` and `red-baize` (cloths the colour of the dice) included; by default the split's own, opt-in ones left out.
 * `--look tray` (D6 only) draws phone photos of a dice tray instead of a rig's webcam (see tray.ts).
 * `--dice-per-image N` or `MIN,MAX` sets how many dice a scene holds (default 1..7; 1 is a rig's channel holding one die).
 * `--offset` starts further into the split's range (to render more, or a disjoint
 * second set); `--reuse` copies images of seeds an existing complete folder
 * already holds (to grow a set without re-rendering it; refused unless its summary.json names this renderer: Chromium's
 * version and the drawing code's hash). `--empty-platform` also writes `empty/<name>.jpg`, each scene's platform without
 * its dice (what a session locates dice against; `training/learned/sessionRecall.ts` reads a folder as a session would).
 * The folder is written as <out>.partial and renamed when complete. A run that stopped before then (killed, the machine
 * shut down) is picked up where it stopped by the same command with `--reuse`: the images it wrote whole are kept.
 */
import { constants as osConstants } from 'node:os';
import { InputError } from '../src/core/errors.js';
import type { BrowserRenderer } from '../src/camera/render3d/browserRenderer.js';
import { parseRenderRequest, RENDER_USAGE, type RenderRequest } from '../src/camera/render3d/renderRequest.js';

if (process.argv.includes('--help')) {
  process.stdout.write(`${RENDER_USAGE}\n`);
  process.exit(0);
}

let request: RenderRequest;
try {
  request = parseRenderRequest(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof InputError)) throw err;
  process.stderr.write(`render-dataset: ${err.message}\n`);
  process.exit(2);
}
const { out, firstSeed, count, split, ...options } = request;

let renderer: BrowserRenderer | undefined;
// Kept so that a signal while the browser starts can wait for it and close it, with its profile folder.
let opening: Promise<BrowserRenderer> | undefined;
let written = 0;
let stopping = false;
let stoppedAt = 0;
// A stopped run (Ctrl-C, kill, timeout) says how far it got and how to go on, rather than Playwright's closed-page trace.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) {
      // Ctrl-C reaches every process of the terminal's group, and tsx passes it on to this one as well: that copy comes
      // within milliseconds and is ignored. A signal a second or more later is someone's second: quit at once.
      if (Date.now() - stoppedAt < 1000) return;
      process.exit(128 + osConstants.signals[signal]);
    }
    stopping = true;
    stoppedAt = Date.now();
    process.stderr.write(`render-dataset: stopped by ${signal} with ${written} of ${count} images written whole in ${out}.partial; the same command with --reuse goes on from there\n`);
    // The browser and its profile folder go too. A browser the signal already ended is given five seconds. One still
    // starting is waited for, however long a busy machine takes (a start that fails removes its folder itself).
    let closed: Promise<unknown>;
    if (renderer) {
      closed = Promise.race([renderer.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
    } else {
      if (opening) process.stderr.write(`render-dataset: closing the browser once it has started (a second ${signal} quits without waiting)\n`);
      closed = (opening ?? Promise.resolve(undefined)).then((r) => r?.close()).catch(() => undefined);
    }
    void closed.finally(() => process.exit(128 + osConstants.signals[signal]));
  });
}
try {
  // The browser driver and the scene code are loaded only for a request that will draw: --help and a refused option
  // answer without them (some 2 s of CPU less before the answer).
  const [{ BrowserRenderer }, { describeRenderer }, { writeRenderedFolder }] = await Promise.all([
    import('../src/camera/render3d/browserRenderer.js'),
    import('../src/camera/render3d/drawingHash.js'),
    import('../src/camera/render3d/writeRenderedFolder.js'),
  ]);
  // Stopped while they loaded: the handler above is ending the run, with nothing to close.
  if (stopping) await new Promise(() => undefined);
  // The signal handlers above close the browser; Playwright's own would end the process before they could.
  opening = BrowserRenderer.open({ signalsHandled: true });
  renderer = await opening;
  // Stopped while the browser started: the handler is closing it, so nothing more is drawn.
  if (stopping) await new Promise(() => undefined);
  let last = Date.now();
  const summary = await writeRenderedFolder(renderer, {
    ...options,
    dir: out,
    firstSeed,
    count,
    onImage: (done, total) => {
      written = done;
      if (Date.now() - last > 10_000 || done === total) {
        last = Date.now();
        process.stderr.write(`  ${done}/${total}\n`);
      }
    },
  });
  process.stdout.write(
    `${out}: ${summary.images} images, ${summary.dice} dice, seeds ${firstSeed}..${firstSeed + count - 1} (${split}), ` +
      `${(summary.images / summary.seconds).toFixed(2)} images/s\n  per class: ${JSON.stringify(summary.perClass)}\n  drawn by ${describeRenderer(renderer.identity)}\n`,
  );
} catch (e) {
  // The scene being drawn when the signal came fails as its browser closes: the handler above says what happened.
  if (stopping) await new Promise(() => undefined);
  throw e;
} finally {
  if (!stopping) await renderer?.close();
}
