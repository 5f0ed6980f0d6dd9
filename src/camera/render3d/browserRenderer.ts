/**
 * Drives the browser side: Debian's Chromium, headless, through playwright-core
 * (never a downloaded browser), WebGL on SwiftShader. One page is loaded once
 * and renders many scenes; the die meshes are sent once.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { DicerigError } from '../../core/errors.js';
import type { RgbImage } from '../../core/image.js';
import { DISABLE_FEATURES_SWITCH } from './chromiumSwitches.js';
import type { RendererIdentity } from './drawingHash.js';
import { drawingHash, pageFilesHash } from './drawingHash.js';
import type { SceneSpec } from './scene.js';
import { SHAPE_KEYS, shapeOf } from './scene.js';

export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--allow-file-access-from-files',
  // Last: Chromium honours only the last --disable-features, and this one repeats Playwright's (chromiumSwitches.ts).
  DISABLE_FEATURES_SWITCH,
];

/**
 * The browser page of this module's source tree (src/camera/render3d/browser), found from this file, from its compiled
 * twin in dist/src/camera/render3d or from the bundled CLI in dist/cli (the nearest src/camera/render3d above it).
 */
function pageUrl(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'browser', 'index.html')];
  for (let i = 0, dir = dirname(here); i < 5; i++, dir = dirname(dir)) candidates.push(join(dir, 'src', 'camera', 'render3d', 'browser', 'index.html'));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`The 3D camera's browser page is missing (looked in ${candidates.join(', ')}).`);
  return pathToFileURL(found).href;
}

/** three.js's version, from the package the page's import map loads (node_modules beside src). */
function threeVersion(pageDir: string): string {
  const file = join(pageDir, '..', '..', '..', '..', 'node_modules', 'three', 'package.json');
  try {
    return String((JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version);
  } catch (e) {
    throw new Render3dError(`three.js, which the 3D camera's page draws with, is missing or unreadable at ${file}: run \`npm ci\`.`, { file, cause: (e as Error).message });
  }
}

/**
 * Little-endian float32 values as base64, as the page's `setShapes` decodes them. The meshes (some 560,000 numbers)
 * sent as arrays cost Playwright's value-by-value serialisation about 5 s of every browser's start; as bytes, well under one.
 */
function float32Base64(values: Float32Array): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');
}

/** The browser could not be started or a scene could not be drawn. */
export class Render3dError extends DicerigError {}

/** A live headless browser ready to render scenes. Close it when done. */
export class BrowserRenderer {
  private constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly userDataDir: string,
    readonly errors: string[],
    /** What draws this renderer's images (recorded with every rendered set). */
    readonly identity: RendererIdentity,
  ) {}

  /**
   * Starts the browser. By default Playwright closes it on SIGINT, SIGTERM and SIGHUP and ends the process at once;
   * a caller with handlers of its own (`signalsHandled`) gets the signal instead, and closes the renderer itself, so
   * that its own cleanup (this renderer's profile folder among it) is not cut short.
   */
  static async open(options: { signalsHandled?: boolean } = {}): Promise<BrowserRenderer> {
    const playwrightHandles = !options.signalsHandled;
    if (!existsSync(CHROMIUM)) {
      throw new Render3dError(`Chromium is not installed at ${CHROMIUM}; the 3D camera renders in it. Run \`bash scripts/setup.sh\` or \`sudo apt-get install --no-install-recommends chromium\`.`);
    }
    const url = pageUrl();
    const pageDir = dirname(fileURLToPath(url));
    const shapes = SHAPE_KEYS.map((key) => {
      const s = shapeOf(key);
      const f = s.faces[0] as (typeof s.faces)[number];
      // The face's inscribed radius as a fraction of its tile's half side (icons and pips are sized to it).
      const c = f.corners.reduce((a, p) => [a[0] + p[0] / f.corners.length, a[1] + p[1] / f.corners.length, a[2] + p[2] / f.corners.length], [0, 0, 0]);
      const [p0, p1] = [f.corners[0], f.corners[1]] as [readonly number[], readonly number[]];
      const mid = [(p0[0]! + p1[0]!) / 2 - c[0]!, (p0[1]! + p1[1]!) / 2 - c[1]!, (p0[2]! + p1[2]!) / 2 - c[2]!];
      return {
        key,
        positions: float32Base64(s.positions),
        normals: float32Base64(s.normals),
        uvs: float32Base64(s.uvs),
        atlasCols: s.atlasCols,
        atlasRows: s.atlasRows,
        faceHalf: Math.hypot(mid[0]!, mid[1]!, mid[2]!) / f.tileHalf,
      };
    });
    // The page's files hashed before the page loads them, and again once it has: the hash is of what this renderer draws with.
    const three = threeVersion(pageDir);
    const pageFiles = pageFilesHash(pageDir);
    const userDataDir = mkdtempSync(join(tmpdir(), 'dicerig-render3d-'));
    let context: BrowserContext;
    try {
      context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: true,
        args: FLAGS,
        viewport: { width: 320, height: 200 },
        handleSIGINT: playwrightHandles,
        handleSIGTERM: playwrightHandles,
        handleSIGHUP: playwrightHandles,
      });
    } catch (e) {
      // A browser that did not start (or was stopped while starting: Ctrl-C reaches it too) leaves no profile folder.
      rmSync(userDataDir, { recursive: true, force: true });
      throw e;
    }
    // Whatever stops the start from here (a page that does not load, a browser killed while starting), the browser
    // is closed and its profile folder removed before the error goes on.
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      });
      await page.goto(url, { waitUntil: 'load' });
      try {
        await page.waitForFunction(() => (globalThis as unknown as { dicerig?: { ready?: boolean } }).dicerig?.ready === true, undefined, { timeout: 20_000 });
      } catch {
        throw new Render3dError(`The 3D camera page did not start: ${errors.join('; ') || 'no error reported'}`, { url });
      }
      await page.evaluate((list) => (globalThis as unknown as { dicerig: { setShapes: (l: unknown) => void } }).dicerig.setShapes(list), shapes);
      // The browser's own version, not the user agent's (which gives only the major version: 156.0.0.0).
      const cdp = await context.newCDPSession(page);
      const { product } = await cdp.send('Browser.getVersion');
      await cdp.detach();
      if (pageFilesHash(pageDir) !== pageFiles) {
        throw new Render3dError(`The 3D camera's page files changed while it loaded them (${pageDir}); start the render again once they are as they should be.`, { url });
      }
      const identity = { chromium: /Chrome\/([\d.]+)/.exec(product)?.[1] ?? product, drawing: drawingHash(pageFiles, three, shapes) };
      return new BrowserRenderer(context, page, userDataDir, errors, identity);
    } catch (e) {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
      throw e;
    }
  }

  /**
   * Renders a scene as the webcam would give it (distortion, blur, noise done in
   * the page): JPEG at the scene's quality, or lossless PNG for checks.
   */
  async render(spec: SceneSpec, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
    return this.draw(spec, format);
  }

  /** The page's render: the image encoded, or (`raw`) its RGB bytes. */
  private async draw(spec: SceneSpec, format: 'jpeg' | 'png' | 'raw'): Promise<Buffer> {
    const b64 = await this.page.evaluate(
      ([s, f]) => (globalThis as unknown as { dicerig: { render: (x: unknown, f: string) => Promise<string> } }).dicerig.render(s, f),
      [spec as unknown, format] as const,
    );
    if (this.errors.length > 0) throw new Render3dError(`The 3D camera page failed: ${this.errors.join('; ')}`, { seed: spec.seed });
    return Buffer.from(b64, 'base64');
  }

  /**
   * The scene as raw RGB pixels (rendered losslessly): the pixels the PNG holds, read back in one transfer rather than
   * encoded as PNG in the page and decoded here (a quarter of a second a 1280x720 frame).
   */
  async renderPixels(spec: SceneSpec): Promise<RgbImage> {
    const data = await this.draw(spec, 'raw');
    if (data.length !== spec.width * spec.height * 3) throw new Render3dError(`The 3D camera page gave ${data.length} bytes for a ${spec.width}x${spec.height} frame.`, { seed: spec.seed });
    return { width: spec.width, height: spec.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  }

  /** Milliseconds the page spent on the last scene: building it (textures) and drawing it (shadows, frame, read-back). */
  async lastTimings(): Promise<Record<string, number>> {
    return this.page.evaluate(() => ({ ...(globalThis as unknown as { dicerig: { timings: Record<string, number> } }).dicerig.timings }));
  }

  async close(): Promise<void> {
    try {
      await this.context.close();
    } finally {
      // Also when the browser was already gone, or going: Ctrl-C reaches Chromium too, and a Chromium shutting down on
      // SIGINT writes its session into the profile after the connection has closed, so it is waited for first.
      await browserGone(this.userDataDir);
      rmSync(this.userDataDir, { recursive: true, force: true });
    }
  }
}

/** Resolves once no process runs with `profileDir` on its command line (Linux's /proc; elsewhere at once), or after 5 s. */
async function browserGone(profileDir: string): Promise<void> {
  const running = (): boolean => {
    let pids: string[];
    try {
      pids = readdirSync('/proc').filter((f) => /^\d+$/.test(f));
    } catch {
      return false;
    }
    return pids.some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(profileDir);
      } catch {
        return false; // gone meanwhile
      }
    });
  };
  for (let waited = 0; waited < 5000 && running(); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}
