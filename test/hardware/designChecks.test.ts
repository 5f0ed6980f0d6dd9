import { describe, expect, it } from 'vitest';
import { checkPreset, derive, designProblems, dieGeometry, loadPresets, withChanges } from '../../scripts/hardware/rigDesign.js';

const presets = loadPresets();
const d6 = presets['d6-16mm'];
const xwing = presets['xwing-d8'];

describe('the design checks of the reference rig', () => {
  it('ships presets for X-Wing d8s and 16 mm D6s', () => {
    expect(Object.keys(presets)).toEqual(expect.arrayContaining(['xwing-d8', 'd6-16mm']));
  });

  for (const [name, preset] of Object.entries(presets)) {
    it(`passes every check for the ${name} preset`, () => {
      expect(designProblems(preset)).toEqual([]);
      expect(checkPreset(preset).length).toBeGreaterThanOrEqual(10);
    });
  }

  it('measures a die by its widest extent in any orientation: the D6 space diagonal, the d8 tip to tip', () => {
    expect(dieGeometry({ type: 'd6', sizeMm: 16, massG: 5 }).maxMm).toBeCloseTo(16 * Math.sqrt(3), 9);
    const d8 = dieGeometry({ type: 'd8', sizeMm: 20, massG: 2 });
    expect(d8.maxMm).toBe(20);
    // A regular octahedron 20 mm tip to tip has edge 20/√2; face to face is edge·√6/3.
    expect(d8.minWidthMm).toBeCloseTo((20 / Math.SQRT2) * (Math.sqrt(6) / 3), 9);
  });

  it('places the camera so every channel is in view and a die is the size vision was measured at', () => {
    for (const preset of [d6, xwing]) {
      if (!preset) throw new Error('missing preset');
      const c = derive(preset).camera;
      // Pinhole geometry checked independently: the view at the lens distance, then the die's share of 1280 px.
      const view = 2 * c.distanceMm * Math.tan((preset.camera.hfovDeg / 2) * (Math.PI / 180));
      expect(view).toBeCloseTo(c.viewWidthMm, 6);
      expect((dieGeometry(preset.die).footprintMm / view) * 1280).toBeCloseTo(c.diePx, 6);
      expect(c.diePx).toBeGreaterThanOrEqual(55);
      expect(c.diePx).toBeLessThanOrEqual(170);
    }
  });
});

describe('a preset that breaks a check', () => {
  if (!d6 || !xwing) throw new Error('missing preset');
  const failing = (p: Parameters<typeof designProblems>[0]): string[] => designProblems(p);

  it('fails "die fits its channel" when the channel is narrower than the space diagonal plus clearance', () => {
    const problems = failing(withChanges(d6, { channelWidthMm: 30 }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^die fits its channel: the die's space diagonal 27\.7 mm \+ 2 × 3 mm clearance = 33\.7 mm; channel 30 × 55 mm/);
  });

  it('fails when a die could wedge under a baffle', () => {
    expect(failing(withChanges(xwing, { baffleReachMm: 20 })).join('\n')).toMatch(/die passes every baffle: gap under a baffle 26\.0 mm, needs 28\.0 mm/);
  });

  it('fails when a die could fall straight past the baffles', () => {
    expect(failing(withChanges(d6, { baffleReachMm: 15 })).join('\n')).toMatch(/no straight path past the baffles: free corridor .* 25\.0 mm must be narrower than the die's smallest width 16\.0 mm/);
  });

  it('fails the tumbling rule on a short drop with too few baffles', () => {
    const problems = failing(withChanges(d6, { dropHeightMm: 120, baffles: 2 }));
    expect(problems.join('\n')).toMatch(/drop height gives enough tumbling: 2 sure impacts .*need 3.*drop 120 mm \(need 194\.0/);
  });

  it('fails the servo check when the servo is too weak for the loaded tower', () => {
    expect(failing(withChanges(d6, { servo: { ratedKgCm: 9, name: 'SG-5010' } })).join('\n')).toMatch(/servo torque within rating: 7\.\d kg·cm needed × margin 2 = 14\.\d kg·cm; SG-5010 rated 9 kg·cm/);
  });

  it('fails the stepper check at a step rate the motor cannot start into', () => {
    expect(failing(withChanges(d6, { stepper: { stepRate: 400 } })).join('\n')).toMatch(/stepper torque within rating \(stepper build\): .* at 400 steps\/s/);
  });

  it('fails the resolution check when eight channels spread the dice too thin for 1280 px', () => {
    const problems = failing(withChanges(d6, { channels: 8 }));
    expect(problems.join('\n')).toMatch(/die size in pixels within what vision was measured at: a die is 5\d\.\d px across in 1280×720; vision measured at 55-170 px/);
  });

  it('fails when the camera would sit inside the tower\'s swing (posts too short)', () => {
    expect(failing(withChanges(d6, { frame: { postMm: 380 } })).join('\n')).toMatch(/camera clears the turning tower: .*camera riser -?\d+\.\d mm \(needs ≥ 10/);
  });

  it('fails when a part no longer fits the print bed', () => {
    expect(failing(withChanges(d6, { dropHeightMm: 260 })).join('\n')).toMatch(/printed parts fit the print bed: tower 213\.2 × 59\.8 × 260\.0 mm \(with its pivot bosses\)/);
  });
});
