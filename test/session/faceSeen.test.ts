import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { getDieType } from '../../src/dice/catalogue.js';
import type { DieType } from '../../src/dice/types.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { faceNotice, faceSeen, topFaceReader } from '../../src/session/faceSeen.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import { SimulatedDice } from '../../src/session/simulatedDice.js';
import type { ThrowTruth } from '../../src/camera/sim/simulatedCamera.js';
import { seededRandom } from '../../src/stats/random.js';
import { RollStore } from '../../src/store/rollStore.js';
import type { FaceRead, FaceReader } from '../../src/vision/faceRead.js';
import { tempDir } from '../store/support/fixtures.js';

const crop = { width: 1, height: 1, data: new Uint8Array(3) };
const reads = (symbol: string): FaceReader => ({ classifierVersion: 'pips/1', read: (): FaceRead => ({ status: 'read', symbol, confidence: 0.99, classifierVersion: 'pips/1', crop }) });

function caught(f: () => unknown): ConfigError {
  try {
    f();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('no ConfigError thrown');
}

describe('the face a session camera sees', () => {
  it('is the top face unless camera.face says bottom; an X-Wing session takes its profile’s face', () => {
    expect(faceSeen({ family: 'pips', cameraSource: 'sim' })).toBe('top');
    expect(faceSeen({ family: 'pips', cameraSource: 'device', configured: 'bottom' })).toBe('bottom');
    expect(faceSeen({ family: 'xwing', cameraSource: 'device', profileFace: 'bottom', profileFile: 'rig.json' })).toBe('bottom');
    expect(faceSeen({ family: 'xwing', cameraSource: 'device', configured: 'bottom', profileFace: 'bottom' })).toBe('bottom');
  });

  it('refuses a camera.face that contradicts the X-Wing profile, naming the key, the profile and what to do', () => {
    const e = caught(() => faceSeen({ family: 'xwing', cameraSource: 'device', configured: 'bottom', profileFace: 'top', profileFile: '/rig/my-rig.json' }));
    expect(e.key).toBe('camera.face');
    expect(e.message).toMatch(/my-rig\.json reads the top face/);
    expect(e.message).toMatch(/--face bottom/);
  });

  it('refuses X-Wing dice seen from below by the simulated camera, which draws d8s only from above', () => {
    const asked = caught(() => faceSeen({ family: 'xwing', cameraSource: 'sim', configured: 'bottom' }));
    expect(asked.key).toBe('camera.face');
    expect(asked.message).toMatch(/only from above/);
    const e = caught(() => faceSeen({ family: 'xwing', cameraSource: 'sim', profileFace: 'bottom', profileFile: 'below.json' }));
    expect(e.key).toBe('calibration');
    expect(e.message).toMatch(/only from above/);
  });

  it('reports the opposite face of a D6-faced die read from below: a 1 seen underneath is a 6 on top, a d3’s face 5 is its face 2', () => {
    const d6 = getDieType('d6');
    expect(topFaceReader(reads('1'), [d6, d6], 'bottom').read({ image: crop, sizePx: 1 })).toMatchObject({ status: 'read', symbol: '6', classifierVersion: 'pips/1 bottom' });
    expect(topFaceReader(reads('5'), [getDieType('d3')], 'bottom').read({ image: crop, sizePx: 1 })).toMatchObject({ status: 'read', symbol: '2' });
    const top = reads('1');
    expect(topFaceReader(top, [d6], 'top')).toBe(top);
  });

  it('refuses to read from below dice whose opposite faces differ, since one reader serves every channel', () => {
    const d6 = getDieType('d6');
    const odd: DieType = { ...d6, id: 'odd-d6', opposite: { '1': '2', '2': '1', '3': '4', '4': '3', '5': '6', '6': '5' } };
    const e = caught(() => topFaceReader(reads('1'), [d6, odd], 'bottom'));
    expect(e.key).toBe('camera.face');
    expect(e.message).toMatch(/d6 and odd-d6 differ/);
  });

  it('simulates a loaded die seen from below: the camera draws the face underneath, and the kept throws’ truth is the top face, loaded as asked', () => {
    const d6 = getDieType('d6');
    const dice = new SimulatedDice([{ type: d6, load: { symbol: '6', factor: 2 } }], seededRandom(9), undefined, 'bottom');
    const random = seededRandom(10);
    const drawn: string[] = [];
    const top: string[] = [];
    for (let i = 0; i < 3000; i++) {
      // A camera that draws a uniform face each time it plans a throw; its truth is the face it drew.
      const kept = dice.choose(() => {
        const face = String(1 + Math.floor(random() * 6));
        const truth: ThrowTruth = { dice: [{ channel: 0, kind: 'd6', face, cocked: false, touching: false, center: { x: 0, y: 0 }, angleDeg: 0, arrowDeg: 10, sizePx: 72, settleFrameIndex: 0 }], settleFrameIndex: 0, frameCount: 1 };
        return { truth, drawn: face };
      });
      drawn.push(kept.drawn);
      top.push(kept.truth.dice[0]?.face as string);
      expect(kept.truth.dice[0]?.arrowDeg).toBeUndefined();
    }
    const share = (xs: string[], f: string): number => xs.filter((x) => x === f).length / xs.length;
    // Loaded 2x on 6: 6 on top 1/3 of the time, so the camera below sees the 1 that often.
    expect(share(top, '6')).toBeGreaterThan(0.3);
    expect(share(top, '6')).toBeLessThan(0.37);
    expect(share(drawn, '1')).toBeCloseTo(share(top, '6'), 10);
    top.forEach((t, i) => expect(Number(t) + Number(drawn[i])).toBe(7));
  });

  it('will not simulate X-Wing dice from below', () => {
    const e = caught(() => new SimulatedDice([{ type: getDieType('red') }], seededRandom(1), undefined, 'bottom'));
    expect(e.key).toBe('camera.face');
  });
});

describe('a D6 session whose camera sees the bottom face', () => {
  it('records the face on top: every roll stored is what the dice rolled, and a die loaded on 6 is stored heavy on 6, not on 1', async () => {
    const dir = tempDir('dicerig-below-');
    const db = join(dir, 'below.db');
    const config = checkSessionConfig({
      seed: 21,
      dice: [
        { label: 'fair', type: 'd6' },
        { label: 'heavy-6', type: 'd6', simulatedLoad: { symbol: '6', factor: 2 } },
      ],
      rig: { driver: 'sim' },
      camera: { source: 'sim', face: 'bottom', cockedRate: 0 },
      // heavy-6 is found UNFAIR at its 114th roll, and retired: a budget of 120 stores the same rolls of it as 300 did,
      // and its fair partner's 120 rolls, not 300 of them alone, show as well that each is stored by its top face.
      stopping: { budgetRolls: 120 },
    });
    const said: string[] = [];
    const opened = await openSession({ config, dbPath: db, wallNow: () => 0, log: (m) => said.push(m) });
    expect(opened.reader.classifierVersion).toMatch(/ bottom$/);
    expect(said.filter((m) => /from below/.test(m))).toEqual(['the camera sees each die from below: every roll is recorded by the face on top, the opposite of the one seen']);
    const wrong: string[] = [];
    let result;
    try {
      result = await runSession(
        runnerDeps(opened, {
          onEvent: (e) => {
            if (e.type !== 'throw' || e.status !== 'ok') return;
            const truth = opened.simCamera?.lastTruth;
            e.rolls.forEach((r, channel) => {
              const rolled = truth?.dice.find((d) => d.channel === channel)?.face;
              if (r.symbol !== undefined && rolled !== r.symbol) wrong.push(`throw ${e.index} ${r.label}: rolled ${rolled}, stored ${r.symbol}`);
            });
          },
        }),
        opened.plan,
      );
    } finally {
      await opened.close();
    }
    expect(result.state).toBe('finished');
    expect(wrong).toEqual([]);
    const store = RollStore.open(db, { mustExist: true });
    const heavy = store.dieRolls(result.sessionId).find((s) => s.die.label === 'heavy-6');
    store.close();
    const count = (face: string): number => heavy?.faces.filter((f) => f === face).length ?? 0;
    // Loaded 2x: a 6 comes up 1/3 of the time, a 1 2/15 (2.5 to 1); read from below and not mapped, it is 1 to 2.5.
    expect(count('6')).toBeGreaterThan(1.5 * count('1'));
  }, 60_000);
});

describe('what a session says before its first throw about the face its camera sees', () => {
  it('warns that a real camera reading D6-faced dice from above must see them face on, and names camera.face: bottom', () => {
    for (const source of ['device', 'replay']) {
      const notice = faceNotice('pips', source, 'top');
      expect(notice).toMatch(/camera\.face: bottom/);
      expect(notice).toMatch(/webcam above an open platform .* not supported yet/);
      expect(notice).toMatch(/stopping\.maxConsecutiveRerolls/);
    }
  });

  it('says nothing for the simulated camera, which draws D6s face on, nor for X-Wing dice read from above by their calibration', () => {
    expect(faceNotice('pips', 'sim', 'top')).toBeUndefined();
    expect(faceNotice('xwing', 'device', 'top')).toBeUndefined();
    expect(faceNotice('xwing', 'replay', 'top')).toBeUndefined();
  });

  it('says that dice seen from below are recorded by their top face, whatever the camera', () => {
    for (const [family, source] of [['pips', 'sim'], ['pips', 'device'], ['xwing', 'device']] as const) expect(faceNotice(family, source, 'bottom')).toMatch(/from below: every roll is recorded by the face on top/);
  });
});
