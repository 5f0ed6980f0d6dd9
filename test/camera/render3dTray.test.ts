/**
 * The 3D camera's opt-in tray look (phone photos of a dice tray, D6 only),
 * checked without a browser: rig scenes are described exactly as before the
 * look existed (shipped weights were trained on their images), and tray scenes
 * have the tray's frame, presets, dice count and die sizes.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SEED_RANGES, SPLITS } from '../../src/camera/render3d/presets.js';
import { buildScene } from '../../src/camera/render3d/scene.js';
import { TRAY_CAMERA, TRAY_LIGHTING, TRAY_PLATFORMS } from '../../src/camera/render3d/tray.js';
import { LIGHTING_PRESETS, PLATFORM_PRESETS } from '../../src/camera/render3d/presets.js';

describe('3D camera tray look', () => {
  it('describes rig scenes exactly as before the tray look existed', () => {
    // sha256 of JSON.stringify(buildScene({ seed, dice })) computed with the renderer of commit 11cba4e (before the
    // tray look). train-d6 (seeds 500000..) and the X-Wing sets are rendered from these scenes.
    const before: [('d6' | 'xwing'), number, string][] = [
      ['d6', 500000, '2f8662cf144944236b7b79a10368374289cf00f130aee2c339cd0f32cd511a08'],
      ['d6', 500123, 'cab1c2d7879e193c9ab97cc4cc117787bc01a3e1be4a6f0639f555796586bc35'],
      ['xwing', 17, 'fc973b0b71bd85932ee6eed73f3360d7ea41dce2980cf9df7bf482afc62eb4f7'],
      ['d6', 2499999, '14a06a6a1ff0752721b78efffba58e243df65bc8cb063743d7b6a89092306b21'],
    ];
    for (const [dice, seed, hash] of before) {
      expect(createHash('sha256').update(JSON.stringify(buildScene({ seed, dice }))).digest('hex'), `${dice} ${seed}`).toBe(hash);
      expect(JSON.stringify(buildScene({ seed, dice, look: 'rig' }))).toBe(JSON.stringify(buildScene({ seed, dice })));
    }
  });

  it('draws a tray scene as a phone photo: a 640x640 frame, no channel walls, 2-14 dice of 20-75 px, nothing cocked at rate 0', () => {
    let dice = 0;
    let bodies = 0;
    for (let i = 0; i < 30; i++) {
      const { spec, truth } = buildScene({ seed: 510_000 + i, dice: 'd6', look: 'tray', cockedRate: 0 });
      expect(spec.look).toBe('tray');
      expect([spec.width, spec.height]).toEqual([TRAY_CAMERA.width, TRAY_CAMERA.height]);
      expect(spec.walls.boxes).toEqual([]);
      expect(spec.camera.tiltDeg).toBeLessThanOrEqual(TRAY_CAMERA.tiltDeg[1]);
      expect(truth.length).toBeGreaterThanOrEqual(1);
      expect(truth.length).toBeLessThanOrEqual(TRAY_CAMERA.diceCount[1]);
      for (const t of truth) {
        expect(t.cocked).toBe(false);
        expect(t.box.x).toBeGreaterThanOrEqual(0);
        expect(t.box.x + t.box.width).toBeLessThanOrEqual(spec.width);
        const across = Math.max(t.box.width, t.box.height);
        expect(across).toBeGreaterThanOrEqual(20);
        expect(across).toBeLessThanOrEqual(75);
        dice++;
      }
      bodies += spec.placed.filter((d) => d.look.translucent !== undefined || d.look.marble !== undefined).length;
    }
    expect(dice).toBeGreaterThan(120);
    // Translucent and marbled dice are 10 of the 14 tray bodies.
    expect(bodies / dice).toBeGreaterThan(0.5);
    expect(bodies / dice).toBeLessThan(0.9);
  });

  it('uses the tray presets of the seed\'s split only, disjoint between splits and from the rig\'s', () => {
    for (const presets of [TRAY_LIGHTING, TRAY_PLATFORMS]) {
      const names = presets.map((p) => p.name);
      expect(new Set(names).size).toBe(names.length);
      for (const s of SPLITS) expect(presets.filter((p) => p.split === s).length).toBeGreaterThan(0);
    }
    const rigNames = new Set([...LIGHTING_PRESETS, ...PLATFORM_PRESETS].map((p) => p.name));
    expect([...TRAY_LIGHTING, ...TRAY_PLATFORMS].filter((p) => rigNames.has(p.name))).toEqual([]);
    for (const split of SPLITS) {
      const [lo, hi] = SEED_RANGES[split];
      for (let i = 0; i < 5; i++) {
        const { spec } = buildScene({ seed: lo + Math.floor((hi - lo) / 2) + i * 7919, dice: 'd6', look: 'tray' });
        expect(TRAY_LIGHTING.find((p) => p.name === spec.preset.lighting)?.split).toBe(split);
        expect(TRAY_PLATFORMS.find((p) => p.name === spec.preset.platform)?.split).toBe(split);
      }
    }
  });

  it('refuses the tray look for X-Wing dice', () => {
    expect(() => buildScene({ seed: 1, dice: 'xwing', look: 'tray' })).toThrow(/tray look draws D6 dice only, not xwing/);
  });
});
