/**
 * The dashboard's latest frame during a fast fairness run (`dicerig serve --config` with a simulated rig on the
 * simulated clock, which throws faster than a browser loads a picture), in Debian's Chromium: the outlines and labels
 * drawn over the frame are always those read from the picture shown under them, never a newer frame's over an older
 * picture.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFairnessDashboard, type FairnessDashboard } from './support/fairnessDashboard.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-frame-e2e-'));
let opened: FairnessDashboard | undefined;

afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Four D6s on the simulated rig and camera: the session clock is simulated, so throws come as fast as the host reads them.
const CONFIG = `name: frame-e2e
seed: 5
dice:
  - { label: d6-A, type: d6 }
  - { label: d6-B, type: d6 }
  - { label: d6-C, type: d6 }
  - { label: d6-D, type: d6 }
rig: { driver: sim }
camera: { source: sim }
`;

/** What the page shows at one moment: the frame its marks were drawn for, and the picture under them. */
interface Shown {
  readonly marksFor: string | null;
  readonly pictureComplete: boolean;
  readonly picture: string;
  readonly rects: number;
}

describe('the dashboard frame during a fast run', { timeout: 180_000 }, () => {
  it('draws each frame\'s outlines only over that frame\'s own picture, however fast frames arrive', async () => {
    opened = await openFairnessDashboard(dir, CONFIG, 'e2e-api-token-frame-0123456789');
    const { page, problems } = opened;
    await expect.poll(() => page.locator('#frame-marks rect').count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // Sampled in the page while throws keep coming (several a second): a frame's picture is /live/frame/<id>.jpg.
    const samples: Shown[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const s = (await page.evaluate(`(() => {
        const img = document.getElementById('frame');
        return { marksFor: img.dataset.frame ?? null, pictureComplete: img.complete, picture: (img.currentSrc.match(/frame\\/(\\d+)\\.jpg$/) ?? [])[1] ?? '',
                 rects: document.querySelectorAll('#frame-marks rect').length };
      })()`)) as Shown;
      samples.push(s);
      if (s.marksFor !== null) seen.add(s.marksFor);
      await new Promise((r) => setTimeout(r, 73));
    }
    // The run was fast enough to test anything: the frame shown moved on many times while sampling.
    expect(seen.size).toBeGreaterThan(5);
    for (const s of samples) {
      expect(s, JSON.stringify(s)).toMatchObject({ pictureComplete: true, picture: s.marksFor });
      expect(s.rects).toBeGreaterThan(0);
    }
    await page.locator('#stop').click();
    await expect.poll(() => page.locator('body').getAttribute('data-run'), { timeout: 30_000 }).not.toBe('running');
    expect(problems).toEqual([]);
  });
});
