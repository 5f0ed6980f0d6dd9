/**
 * The 3D synthetic camera in the real browser (Debian's Chromium through
 * playwright-core, WebGL on SwiftShader): the same seed gives the same image,
 * each die's pixels are where its label's box says (checked against a render of
 * the same scene without that die), and a written folder reads back through the
 * shared labelled-folder reader with one ground-truth sidecar per image.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { BrowserRenderer } from '../../src/camera/render3d/browserRenderer.js';
import { featuresDropped } from '../../src/camera/render3d/chromiumSwitches.js';
import { processTable } from '../support/processTable.js';
import type { PixelBox } from '../../src/camera/render3d/labels.js';
import type { Scene, SceneSpec } from '../../src/camera/render3d/scene.js';
import { buildScene, emptyPlatform, withoutDie } from '../../src/camera/render3d/scene.js';
import { decodeImageFile } from '../../src/camera/decode.js';
import { writeRenderedFolder } from '../../src/camera/render3d/writeRenderedFolder.js';
import type { RgbImage } from '../../src/core/image.js';
import { rememberingRenderer } from './support/rememberingRenderer.js';

let renderer: BrowserRenderer;
/** The same browser for the folder writer's tests, drawing each scene once however often they ask for it. */
let folders: BrowserRenderer;
let dir = '';
beforeAll(async () => {
  renderer = await BrowserRenderer.open();
  folders = rememberingRenderer(renderer);
  dir = await mkdtemp(join(tmpdir(), 'dicerig-render3d-'));
}, 120_000);
afterAll(async () => {
  await renderer?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * Renders that tests only read the pixels of, each drawn once however many tests read it: the random-art scene of seed
 * 1,000,700 serves both artwork tests, the sharp tray scene of seed 510,001 the PNG test and the tray test. That a spec
 * gives the same pixels each time is the first test's claim.
 */
const drawnPixels = new Map<string, Promise<RgbImage>>();
function pixelsOnce(spec: SceneSpec): Promise<RgbImage> {
  const key = JSON.stringify(spec);
  let image = drawnPixels.get(key);
  if (image === undefined) {
    image = renderer.renderPixels(spec);
    drawnPixels.set(key, image);
  }
  return image;
}

/** The tray scene of the PNG and tray tests: every die flat (cocked rate 0), edges sharp. */
const trayScene = (): Scene => buildScene({ seed: 510_001, dice: 'd6', look: 'tray', cockedRate: 0 });

/** Sharp edges for the pixel check: no defocus or shake (the same noise in both renders). */
function sharpSpec(spec: SceneSpec): SceneSpec {
  return { ...spec, post: { ...spec.post, blurSigma: 0, motionPx: 0 } };
}

/** Whether pixel (x, y) differs between two frames of one size by more than 30 in some channel (JPEG-free, sharp renders). */
function changed(a: RgbImage, b: RgbImage, x: number, y: number): boolean {
  const i = (y * a.width + x) * 3;
  return Math.max(...[0, 1, 2].map((c) => Math.abs((a.data[i + c] as number) - (b.data[i + c] as number)))) > 30;
}

/** Whether (x, y) lies in a box grown by one pixel each way (anti-aliased edges). */
const nearBox = (box: PixelBox, x: number, y: number): boolean => x >= box.x - 1 && x < box.x + box.width + 1 && y >= box.y - 1 && y < box.y + box.height + 1;

interface Diff {
  inBox: number;
  sides: [boolean, boolean, boolean, boolean];
  brighterOutside: number;
}

/** Compares a frame with and without one die, around that die's labelled box. */
function diffAround(withDie: RgbImage, without: RgbImage, box: PixelBox): Diff {
  const { width, height } = withDie;
  const x0 = Math.floor(box.x);
  const y0 = Math.floor(box.y);
  const x1 = Math.ceil(box.x + box.width);
  const y1 = Math.ceil(box.y + box.height);
  const near = 3;
  const out: Diff = { inBox: 0, sides: [false, false, false, false], brighterOutside: 0 };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      let change = 0;
      let brighter = 0;
      for (let c = 0; c < 3; c++) {
        const d = (withDie.data[i + c] as number) - (without.data[i + c] as number);
        change = Math.max(change, Math.abs(d));
        brighter = Math.max(brighter, d);
      }
      const inside = x >= x0 && x < x1 && y >= y0 && y < y1;
      if (inside && change > 30) {
        out.inBox++;
        if (x < x0 + near) out.sides[0] = true;
        if (x >= x1 - near) out.sides[1] = true;
        if (y < y0 + near) out.sides[2] = true;
        if (y >= y1 - near) out.sides[3] = true;
      }
      // Beyond its box (and a pixel of rounding) a die may only darken the platform: its shadow.
      const beyond = x < x0 - 1 || x >= x1 + 1 || y < y0 - 1 || y >= y1 + 1;
      if (beyond && brighter > 30) out.brighterOutside++;
    }
  }
  return out;
}

describe('3D synthetic camera in Chromium', () => {
  it('renders the same image from the same seed', async () => {
    const { spec } = buildScene({ seed: 2_000_123, dice: 'xwing' });
    const a = await renderer.renderPixels(spec);
    const b = await renderer.renderPixels(spec);
    expect(a.width).toBe(1280);
    expect(a.height).toBe(720);
    expect(Buffer.compare(Buffer.from(a.data), Buffer.from(b.data))).toBe(0);
  }, 180_000);

  it("starts its browser with Playwright's own disabled features and without the omnibox popups no page opens", () => {
    // Every process's parent and command line: the renderer's browser is this process's child.
    const processes = processTable();
    const ours = [...processes].filter(([, p]) => p.ppid === process.pid && p.args.includes('--remote-debugging-pipe') && p.args.some((a) => a.startsWith(`--user-data-dir=${join(tmpdir(), 'dicerig-render3d-')}`)));
    expect(ours).toHaveLength(1);
    const [browserPid, browser] = ours[0] as [number, { args: string[] }];
    expect(featuresDropped(browser.args)).toEqual([]);
    const descends = (pid: number): boolean => {
      for (let p = processes.get(pid); p !== undefined; p = processes.get(p.ppid)) if (p.ppid === browserPid) return true;
      return false;
    };
    // Chromium rewrites its child processes' command lines as one line (their title): matched as words of it.
    const renderers = [...processes].filter(([pid, p]) => descends(pid) && /(^| )--type=renderer( |$)/.test(p.args.join(' '))).map(([, p]) => p.args.join(' '));
    // The page's renderer, maybe a spare one; none for the browser's own (WebUI) pages.
    expect(renderers.length).toBeGreaterThan(0);
    expect(renderers.filter((line) => / --top-chrome-webui( |$)/.test(line))).toEqual([]);
  });

  it('reads back as pixels the very image its lossless PNG holds', async () => {
    const spec = sharpSpec(trayScene().spec);
    const pixels = await pixelsOnce(spec);
    const { data, info } = await sharp(await renderer.render(spec, 'png')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([pixels.width, pixels.height]).toEqual([info.width, info.height]);
    expect(Buffer.compare(Buffer.from(pixels.data), data)).toBe(0);
  }, 180_000);

  for (const [dice, seed] of [['xwing', 2_000_123], ['d6', 2_500_042]] as const) {
    it(`draws a ${dice} die where its box says: a render without it differs inside the box, up to each side, and beyond it only by its shadow`, async () => {
      const scene = buildScene({ seed, dice, diceCount: [2, 4] });
      const spec = sharpSpec(scene.spec);
      expect(spec.placed.length).toBeGreaterThanOrEqual(2);
      const index = 0;
      const t = scene.truth[index];
      if (!t) throw new Error('no die in the scene');
      const withDie = await renderer.renderPixels(spec);
      const without = await renderer.renderPixels(withoutDie(spec, index));
      const d = diffAround(withDie, without, t.box);
      expect(d.inBox).toBeGreaterThan(0.3 * t.box.width * t.box.height);
      expect(d.sides).toEqual([true, true, true, true]);
      expect(d.brighterOutside).toBe(0);
      // The projected top-face centre lies on the die.
      expect(t.topCenter[0]).toBeGreaterThan(t.box.x);
      expect(t.topCenter[0]).toBeLessThan(t.box.x + t.box.width);
      expect(t.topCenter[1]).toBeGreaterThan(t.box.y);
      expect(t.topCenter[1]).toBeLessThan(t.box.y + t.box.height);
    }, 180_000);
  }

  it('draws foreign and random icon artwork on the dice only (the images differ inside the boxes of dice showing an icon, nowhere else), and each foreign artwork unlike the others', async () => {
    const seed = 1_000_700;
    const house = buildScene({ seed, dice: 'xwing' });
    const withIcon = house.truth.filter((t) => !t.className.endsWith('blank') && t.className !== 'cocked');
    expect(withIcon.length).toBeGreaterThan(0);
    const a = await renderer.renderPixels(sharpSpec(house.spec));
    const foreign = new Map<string, RgbImage>();
    for (const art of ['foreign-1', 'foreign-2', 'foreign-3', 'random'] as const) {
      const b = await pixelsOnce(sharpSpec(buildScene({ seed, dice: 'xwing', art }).spec));
      if (art !== 'random') foreign.set(art, b);
      let outside = 0;
      const changedIn = new Array<number>(house.truth.length).fill(0);
      for (let y = 0; y < a.height; y++) {
        for (let x = 0; x < a.width; x++) {
          if (!changed(a, b, x, y)) continue;
          if (!house.truth.some((t) => nearBox(t.box, x, y))) outside++;
          house.truth.forEach((t, k) => {
            if (x >= t.box.x && x < t.box.x + t.box.width && y >= t.box.y && y < t.box.y + t.box.height) changedIn[k] = (changedIn[k] as number) + 1;
          });
        }
      }
      expect(outside).toBe(0);
      house.truth.forEach((t, k) => {
        if (withIcon.includes(t)) expect(changedIn[k], `${art}: ${t.className} die ${k}`).toBeGreaterThan(0.02 * t.box.width * t.box.height);
      });
    }
    // Each foreign artwork is drawn unlike the others too: a calibration developed on two of them must not see the third.
    const arts = [...foreign.keys()];
    for (const [i, x] of arts.entries()) {
      for (const y of arts.slice(i + 1)) {
        const [p, q] = [foreign.get(x) as RgbImage, foreign.get(y) as RgbImage];
        for (const t of withIcon) {
          let n = 0;
          for (let yy = Math.max(0, Math.ceil(t.box.y)); yy < Math.min(p.height, t.box.y + t.box.height); yy++) {
            for (let xx = Math.max(0, Math.ceil(t.box.x)); xx < Math.min(p.width, t.box.x + t.box.width); xx++) if (changed(p, q, xx, yy)) n++;
          }
          expect(n, `${x} against ${y}: ${t.className}`).toBeGreaterThan(0.02 * t.box.width * t.box.height);
        }
      }
    }
  }, 180_000);

  it("draws each die of random artwork in its own style: another style seed for one die changes that die's box only", async () => {
    const scene = buildScene({ seed: 1_000_700, dice: 'xwing', art: 'random' });
    const k = scene.truth.findIndex((t) => !t.className.endsWith('blank') && t.className !== 'cocked');
    expect(k).toBeGreaterThanOrEqual(0);
    const restyled = { ...scene.spec, placed: scene.spec.placed.map((d, i) => (i === k ? { ...d, look: { ...d.look, icon: { ...d.look.icon, seed: ((d.look.icon.seed ?? 0) + 1) >>> 0 } } } : d)) };
    const a = await pixelsOnce(sharpSpec(scene.spec));
    const b = await renderer.renderPixels(sharpSpec(restyled));
    const box = (scene.truth[k] as (typeof scene.truth)[number]).box;
    let inside = 0;
    let outside = 0;
    for (let y = 0; y < a.height; y++) {
      for (let x = 0; x < a.width; x++) {
        if (!changed(a, b, x, y)) continue;
        if (nearBox(box, x, y)) inside++;
        else outside++;
      }
    }
    expect(outside).toBe(0);
    expect(inside).toBeGreaterThan(0.02 * box.width * box.height);
  }, 180_000);

  const renderScript = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'scripts', 'render-dataset.ts'), ...args], { cwd: join(import.meta.dirname, '..', '..'), encoding: 'utf8' });

  it('picks up a run that stopped part way with --reuse, drawing only the scenes it had not written whole, and starts afresh for another request', async () => {
    let renders = 0;
    const counting = Object.create(folders) as BrowserRenderer;
    counting.render = (spec, format) => {
      renders++;
      return folders.render(spec, format);
    };
    const stopAfter = (n: number) => (done: number) => {
      if (done === n) throw new Error('stopped');
    };
    const out = join(dir, 'resumed');
    // The one-die test's scenes: the remembering renderer draws each of them once for both tests.
    const request = { dir: out, dice: 'xwing', firstSeed: 40_501, count: 3, diceCount: [1, 1] } as const;
    // Stopped after its second image, as a killed run would be; the second image's truth file lost as if killed mid-write.
    await expect(writeRenderedFolder(counting, { ...request, onImage: stopAfter(2) })).rejects.toThrow('stopped');
    expect(renders).toBe(2);
    const firstImage = await readFile(join(`${out}.partial`, 'images', 'r3d-xwing-40501.jpg'));
    await rm(join(`${out}.partial`, 'truth', 'r3d-xwing-40502.json'));
    renders = 0;
    const summary = await writeRenderedFolder(counting, { ...request, reuse: true });
    expect(renders).toBe(2);
    expect(summary.images).toBe(3);
    expect(await readFile(join(out, 'images', 'r3d-xwing-40501.jpg'))).toEqual(firstImage);
    expect((await readLabelledFolder(join(out, 'images'))).photos.map((p) => p.name)).toEqual(['r3d-xwing-40501', 'r3d-xwing-40502', 'r3d-xwing-40503']);
    expect(existsSync(join(out, 'READY'))).toBe(true);
    expect(existsSync(join(out, 'request.json'))).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);

    // Another request (other art) does not pick up the images of a stopped run.
    const other = join(dir, 'restarted');
    await expect(writeRenderedFolder(counting, { dir: other, dice: 'xwing', firstSeed: 40_501, count: 1, diceCount: [1, 1], onImage: stopAfter(1) })).rejects.toThrow('stopped');
    renders = 0;
    await writeRenderedFolder(counting, { dir: other, dice: 'xwing', firstSeed: 40_501, count: 1, diceCount: [1, 1], reuse: true, art: 'foreign-1' });
    expect(renders).toBe(1);
  }, 180_000);

  it('renders one die a scene when asked, as a rig channel holds it, records the count, and refuses to grow the set with scenes of other counts', async () => {
    const out = join(dir, 'one-die');
    await writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 40_501, count: 3, diceCount: [1, 1] });
    for (let seed = 40_501; seed < 40_504; seed++) {
      const truth = JSON.parse(await readFile(join(out, 'truth', `r3d-xwing-${seed}.json`), 'utf8')) as { dice: unknown[] };
      expect(truth.dice).toHaveLength(1);
    }
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({ diceCount: [1, 1] });
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 40_501, count: 4, reuse: true })).rejects.toThrow(/holds scenes of 1\.\.1 dice; cannot reuse them for the scene's own/);
  }, 180_000);

  it("refuses a bad option through the script: exit code 2, the reason prefixed with the script's name, nothing written", () => {
    const r = renderScript('--dice', 'xwing', '--split', 'train', '--count', '1', '--lighting', 'ceiling-panel-bright,ring-light', '--out', join(dir, 'never'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/render-dataset: --lighting: Lighting preset "ring-light" belongs to the test split, not train/);
    expect(existsSync(join(dir, 'never'))).toBe(false);
  }, 60_000);

  it('names a misspelt option and prints the usage, without a stack trace or any file written', () => {
    const r = renderScript('--dice', 'xwing', '--split', 'train', '--count', '1', '--cocked', '0.5', '--out', join(dir, 'never'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/render-dataset: Unknown option '--cocked'/);
    expect(r.stderr).toMatch(/usage: npm run render -- --dice xwing\|d6 --split train\|tune\|test .*--art house\|foreign-1\|foreign-2\|foreign-3\|random/);
    expect(r.stderr).not.toMatch(/at parseArgs|node:internal/);
    expect(existsSync(join(dir, 'never'))).toBe(false);
    expect(renderScript('--help').stdout).toMatch(/^usage: npm run render/);
  }, 60_000);

  /**
   * `render-dataset` started as a user would, its TMPDIR (where the browser's profile folder goes) a fresh folder:
   * by node directly, or (`npm`) by `npm run render` in a process group of its own, as a terminal's foreground job.
   */
  async function startRender(args: string[], how: 'node' | 'npm' = 'node') {
    const tmp = await mkdtemp(join(tmpdir(), 'dicerig-render-tmp-'));
    const script = join(import.meta.dirname, '..', '..', 'scripts', 'render-dataset.ts');
    const [command, prefix] = how === 'npm' ? ['npm', ['run', '-s', 'render', '--']] : [process.execPath, ['--import', 'tsx', script]];
    const child = spawn(command, [...prefix, '--dice', 'xwing', '--split', 'train', ...args], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, TMPDIR: tmp },
      detached: how === 'npm',
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Closed once every process holding the pipe has ended and its last bytes were read (npm's script outlives npm).
    const stderrClosed = new Promise<void>((resolve) => child.stderr.on('close', () => resolve()));
    const profilesLeft = async (): Promise<string[]> => (await readdir(tmp)).filter((f) => f.startsWith('dicerig-render3d-'));
    const processesLeft = (): string => spawnSync('pgrep', ['-f', tmp]).stdout.toString();
    return {
      child,
      exited,
      stderr: () => stderr,
      stderrClosed,
      profilesLeft,
      processesLeft,
      /** No browser profile folder and no process of the run left; then its TMPDIR goes. */
      async leftNothing(): Promise<void> {
        expect(await profilesLeft()).toEqual([]);
        expect(processesLeft()).toBe('');
        await rm(tmp, { recursive: true, force: true });
      },
    };
  }

  /**
   * The runs stopped part way grow a set of one image with --reuse: the one-die scene of seed 40,501, which the folder
   * tests draw too (the remembering renderer draws it once). The run copies that image, written whole at once, and is
   * stopped while its browser draws the next. Drawing a first image of its own cost each run its browser's first frame
   * (the room reflections are made then) and a scene, some 7 s of CPU of the 12 such a run took.
   */
  const REUSED_FIRST = ['--offset', '40500', '--dice-per-image', '1', '--reuse'];
  async function setOfFirstImage(out: string): Promise<string> {
    await writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 40_501, count: 1, diceCount: [1, 1] });
    return out;
  }

  /** Resolves once the first image of `out` is written whole (its truth file is written last). */
  async function firstImageOf(out: string): Promise<void> {
    const truth = join(`${out}.partial`, 'truth');
    while (!(existsSync(truth) && (await readdir(truth)).some((f) => f.endsWith('.json')))) await new Promise((r) => setTimeout(r, 100));
  }

  it('stopped by a signal part way, says how many images it wrote whole and how to go on, and leaves no browser or browser profile behind', async () => {
    const out = join(dir, 'signalled');
    const run = await startRender([...REUSED_FIRST, '--count', '4', '--out', await setOfFirstImage(out)]);
    await firstImageOf(out);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(128 + 15);
    expect(run.stderr()).toMatch(new RegExp(`render-dataset: stopped by SIGTERM with [1-3] of 4 images written whole in ${out}\\.partial; the same command with --reuse goes on from there`));
    expect(run.stderr()).not.toMatch(/Target page|node:internal|at /);
    await run.leftNothing();
  }, 180_000);

  it('stopped by Ctrl-C in a terminal (SIGINT to every process of `npm run render`, the browser too), leaves no browser or browser profile behind', async () => {
    const out = join(dir, 'ctrl-c');
    const run = await startRender([...REUSED_FIRST, '--count', '3', '--out', await setOfFirstImage(out)], 'npm');
    await firstImageOf(out);
    process.kill(-(run.child.pid as number), 'SIGINT');
    // npm ends at once; the script goes on closing the browser: wait until nothing of the run is left (20 s at most).
    const runLeft = (): boolean => run.processesLeft() !== '' || spawnSync('pgrep', ['-f', out]).stdout.toString() !== '';
    for (let waited = 0; waited < 20_000 && runLeft(); waited += 200) await new Promise((r) => setTimeout(r, 200));
    expect(runLeft()).toBe(false);
    // The script's last line may still be in the pipe when its process is gone: read the pipe to its end first.
    await run.stderrClosed;
    expect(run.stderr()).toMatch(new RegExp(`render-dataset: stopped by SIGINT with [1-2] of 3 images written whole in ${out}\\.partial`));
    await run.leftNothing();
  }, 180_000);

  it('stopped by a signal while its browser is still starting, leaves no browser or browser profile behind', async () => {
    const run = await startRender(['--count', '2', '--offset', '40750', '--out', join(dir, 'signalled-early')]);
    // The moment the browser's profile folder exists, the browser is starting: stop the run then.
    while ((await run.profilesLeft()).length === 0) await new Promise((r) => setTimeout(r, 20));
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(128 + 15);
    expect(run.stderr()).toMatch(/render-dataset: stopped by SIGTERM with 0 of 2 images written whole/);
    expect(run.stderr()).toMatch(/closing the browser once it has started \(a second SIGTERM quits without waiting\)/);
    expect(run.stderr()).not.toMatch(/node:internal|at /);
    await run.leftNothing();
  }, 180_000);

  it('refuses to draw a set another live process is drawing, naming it, and takes over the lock of a run that was killed', async () => {
    const out = join(dir, 'locked');
    // A live process (a sleeping child) holds the set: refused, nothing written, its lock left alone.
    const holder = spawn('sleep', ['30']);
    await writeFile(`${out}.lock`, `${holder.pid}\n`);
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1 })).rejects.toThrow(
      new RegExp(`${out} is being rendered by process ${holder.pid} \\(${out}\\.lock\\): render another set, or stop that run first`),
    );
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(await readFile(`${out}.lock`, 'utf8')).toBe(`${holder.pid}\n`);
    // That process gone (killed, its lock left behind): the next run takes the set, draws it and leaves no lock.
    const gone = new Promise((resolve) => holder.on('exit', resolve));
    holder.kill('SIGKILL');
    await gone;
    await writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1 });
    expect(existsSync(join(out, 'READY'))).toBe(true);
    expect(existsSync(`${out}.lock`)).toBe(false);
  }, 180_000);

  it('refuses to grow a set from images drawn in another artwork or with cocked dice leaning otherwise, or on other lights or platforms, and records what it drew on', async () => {
    const out = join(dir, 'tune-xwing-art');
    await writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1 });
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1, reuse: true, art: 'foreign-1' })).rejects.toThrow(/holds house art; cannot reuse its images for foreign-1 art/);
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1, reuse: true, cockedTiltDeg: [14, 22] })).rejects.toThrow(/leaning 14\.\.40 degrees; cannot reuse its images for 14\.\.22/);
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1, reuse: true, lighting: ['lamp-neutral'] })).rejects.toThrow(/lit by the split's own presets; cannot reuse them for lamp-neutral/);
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1, reuse: true, platforms: ['green-felt'] })).rejects.toThrow(/dice lying on the split's own platform presets; cannot reuse them for green-felt/);
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1, reuse: true, cockedOnDie: 0.9 })).rejects.toThrow(/a share of 0\.4 of cocked dice lean on a die; cannot reuse them for 0\.9/);
    // The lean asked for, and what cocked dice lean on, are recorded with the set.
    const low = join(dir, 'tune-xwing-low');
    await writeRenderedFolder(folders, { dir: low, dice: 'xwing', firstSeed: 1_000_000, count: 1, cockedTiltDeg: [14, 22], cockedOnDie: 0.9, platforms: ['grey-acrylic'] });
    expect(JSON.parse(await readFile(join(low, 'summary.json'), 'utf8'))).toMatchObject({ cockedTiltDeg: [14, 22], cockedOnDie: 0.9, platforms: ['grey-acrylic'] });
    expect(JSON.parse(await readFile(join(low, 'truth', 'r3d-xwing-1000000.json'), 'utf8'))).toMatchObject({ preset: { platform: 'grey-acrylic' } });
    await expect(writeRenderedFolder(folders, { dir: low, dice: 'xwing', firstSeed: 1_000_000, count: 1, reuse: true, cockedTiltDeg: [14, 22], cockedOnDie: 0.9 })).rejects.toThrow(
      /dice lying on grey-acrylic platform presets; cannot reuse them for the split's own/,
    );
    await expect(writeRenderedFolder(folders, { dir: low, dice: 'xwing', firstSeed: 1_000_000, count: 1, reuse: true, cockedTiltDeg: [14, 22] })).rejects.toThrow(/a share of 0\.9 of cocked dice lean on a die; cannot reuse them for 0\.4/);
  }, 180_000);

  it('refuses to grow a set from images of another scene look, and records the look in summary.json', async () => {
    const out = join(dir, 'train-d6-look');
    await writeRenderedFolder(folders, { dir: out, dice: 'd6', firstSeed: 510_000, count: 1 });
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({ look: 'rig' });
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'd6', firstSeed: 510_000, count: 1, reuse: true, look: 'tray' })).rejects.toThrow(/holds rig-look images; cannot reuse them for the tray look/);
  }, 180_000);

  it('records what drew a set (Chromium as installed, the drawing code) and refuses to grow a set another renderer drew, or one that did not say', async () => {
    const out = join(dir, 'tune-xwing-drawn');
    await writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1 });
    const summaryFile = join(out, 'summary.json');
    const summary = JSON.parse(await readFile(summaryFile, 'utf8')) as { renderer: { chromium: string; drawing: string } };
    const installed = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).stdout;
    expect(installed).toContain(summary.renderer.chromium);
    expect(summary.renderer.chromium).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(summary.renderer).toEqual(renderer.identity);
    // The same renderer grows its own set, copying the image it drew.
    const image = join(out, 'images', 'r3d-xwing-1000000.jpg');
    const before = await readFile(image);
    await writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 2, reuse: true });
    expect((await readFile(image)).equals(before)).toBe(true);
    const drawn = JSON.parse(await readFile(summaryFile, 'utf8')) as Record<string, unknown>;
    const other = { ...drawn, renderer: { ...summary.renderer, drawing: '0'.repeat(64) } };
    await writeFile(summaryFile, JSON.stringify(other));
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 2, reuse: true })).rejects.toThrow(
      /was drawn by Chromium [\d.]+, drawing code 000000000000, not by this renderer \(Chromium [\d.]+, drawing code [0-9a-f]{12}\); cannot reuse its images/,
    );
    await writeFile(summaryFile, JSON.stringify({ ...drawn, renderer: { ...summary.renderer, chromium: '1.0.0.0' } }));
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 2, reuse: true })).rejects.toThrow(/was drawn by Chromium 1\.0\.0\.0/);
    const { renderer: _, ...unsaid } = drawn;
    await writeFile(summaryFile, JSON.stringify(unsaid));
    await expect(writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 2, reuse: true })).rejects.toThrow(/was drawn by a renderer that did not record itself/);
    // Nothing was lost by a refused reuse: the set is still there.
    expect((await readFile(image)).equals(before)).toBe(true);
  }, 180_000);

  it('draws a tray scene at 640x640 with every die where its box says', async () => {
    const scene = trayScene();
    const img = await pixelsOnce(sharpSpec(scene.spec));
    expect([img.width, img.height]).toEqual([640, 640]);
    const t = scene.truth[0] as (typeof scene.truth)[number];
    const without = await renderer.renderPixels(sharpSpec(withoutDie(scene.spec, 0)));
    let changedIn = 0;
    for (let y = Math.floor(t.box.y); y < t.box.y + t.box.height; y++) {
      for (let x = Math.floor(t.box.x); x < t.box.x + t.box.width; x++) {
        if (changed(img, without, x, y)) changedIn++;
      }
    }
    expect(changedIn).toBeGreaterThan(0.3 * t.box.width * t.box.height);
  }, 180_000);

  it('writes with emptyPlatform each scene photographed without its dice, as a session\'s reference: unlike the image on every die, like it away from them up to its own sensor noise', async () => {
    const out = join(dir, 'tune-xwing-empty');
    // Seed 1,000,000, whose image the other folder tests draw too: only its empty platform is drawn here.
    await writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 1, emptyPlatform: true });
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({ emptyPlatform: true });
    const name = 'r3d-xwing-1000000';
    const image = await decodeImageFile(join(out, 'images', `${name}.jpg`));
    const empty = await decodeImageFile(join(out, 'empty', `${name}.jpg`));
    const { dice } = JSON.parse(await readFile(join(out, 'truth', `${name}.json`), 'utf8')) as { dice: { box: PixelBox }[] };
    expect(dice.length).toBeGreaterThan(0);
    const diff = (x: number, y: number): number => {
      const i = (y * image.width + x) * 3;
      return Math.max(...[0, 1, 2].map((c) => Math.abs((image.data[i + c] as number) - (empty.data[i + c] as number))));
    };
    for (const { box } of dice) {
      // The die's central half: the die in one, the platform in the other.
      let changedPx = 0;
      let n = 0;
      for (let y = Math.round(box.y + box.height / 4); y < box.y + (3 * box.height) / 4; y++) {
        for (let x = Math.round(box.x + box.width / 4); x < box.x + (3 * box.width) / 4; x++, n++) if (diff(x, y) > 30) changedPx++;
      }
      expect(changedPx).toBeGreaterThan(0.5 * n);
    }
    // Away from every die and its shadow (a box's size around it): the same platform, walls and light, other noise.
    const far = (x: number, y: number): boolean => dice.every(({ box }) => x < box.x - box.width || x > box.x + 2 * box.width || y < box.y - box.height || y > box.y + 2 * box.height);
    let sum = 0;
    let n = 0;
    let differing = 0;
    for (let y = 0; y < image.height; y += 3) {
      for (let x = 0; x < image.width; x += 3) {
        if (!far(x, y)) continue;
        const d = diff(x, y);
        sum += d;
        n++;
        if (d > 0) differing++;
      }
    }
    expect(n).toBeGreaterThan(10_000);
    expect(sum / n).toBeLessThan(8);
    expect(differing).toBeGreaterThan(0.2 * n);
    // The scene itself is the same one, but for its dice and noise seed.
    const { spec } = buildScene({ seed: 1_000_000, dice: 'xwing' });
    const bare = emptyPlatform(spec);
    expect(bare.placed).toEqual([]);
    expect(bare.post.noiseSeed).not.toBe(spec.post.noiseSeed);
    expect({ ...bare, placed: spec.placed, post: spec.post }).toEqual(spec);
  }, 180_000);

  it('writes a labelled folder the shared reader reads, with a ground-truth sidecar per image and READY when complete', async () => {
    const out = join(dir, 'tune-xwing');
    const summary = await writeRenderedFolder(folders, { dir: out, dice: 'xwing', firstSeed: 1_000_000, count: 2 });
    expect(summary.images).toBe(2);
    expect(await readdir(out)).toEqual(expect.arrayContaining(['READY', 'images', 'labels', 'truth', 'summary.json']));
    const folder = await readLabelledFolder(join(out, 'images'));
    expect(folder.classes).toEqual(['red-hit', 'red-crit', 'red-focus', 'red-blank', 'green-evade', 'green-focus', 'green-blank', 'cocked']);
    expect(folder.photos).toHaveLength(2);
    for (const photo of folder.photos) {
      const sidecar = JSON.parse(await readFile(join(out, 'truth', `${photo.name}.json`), 'utf8')) as { seed: number; split: string; preset: { lighting: string }; dice: { className: string; box: PixelBox }[] };
      expect(sidecar.split).toBe('tune');
      expect(sidecar.preset.lighting).toBeTruthy();
      expect(photo.boxes.map((b) => b.className)).toEqual(sidecar.dice.map((d) => d.className));
      photo.boxes.forEach((b, i) => {
        const truth = (sidecar.dice[i] as { box: PixelBox }).box;
        expect(b.box.x * 1280).toBeCloseTo(truth.x, 2);
        expect(b.box.y * 720).toBeCloseTo(truth.y, 2);
        expect(b.box.width * 1280).toBeCloseTo(truth.width, 2);
        expect(b.box.height * 720).toBeCloseTo(truth.height, 2);
      });
      const jpeg = await readFile(photo.imagePath);
      expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
  }, 180_000);
});
