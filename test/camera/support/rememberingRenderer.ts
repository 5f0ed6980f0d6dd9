import type { BrowserRenderer } from '../../../src/camera/render3d/browserRenderer.js';

/**
 * A renderer that draws each scene once and hands out copies of that image when the same scene is asked again.
 * For the tests of the rendered-folder writer (its reuse, locks, refusals and records), which draw the same few
 * scenes many times over: a render is the same bytes from the same spec (render3d.test.ts checks that with the real
 * browser), and each draw at 1280x720 costs seconds of CPU on SwiftShader. The writer still asks for every image
 * it draws, so a wrapper counting its requests above this one counts what it did before.
 */
export function rememberingRenderer(renderer: BrowserRenderer): BrowserRenderer {
  const drawn = new Map<string, Promise<Buffer>>();
  const remembering = Object.create(renderer) as BrowserRenderer;
  remembering.render = async (spec, format = 'jpeg') => {
    const key = JSON.stringify([spec, format]);
    let image = drawn.get(key);
    if (image === undefined) {
      image = renderer.render(spec, format);
      drawn.set(key, image);
      // A failed draw is not remembered: the next request draws again.
      image.catch(() => drawn.delete(key));
    }
    return Buffer.from(await image);
  };
  return remembering;
}
