import { describe, expect, it } from 'vitest';
import { checkSessionConfig } from '../../src/session/config.js';
import { simulatedCalibration } from '../../src/session/misreadingReader.js';
import { openSession } from '../../src/session/setup.js';
import { seededRandom } from '../../src/stats/random.js';
import { tempDir } from '../store/support/fixtures.js';
import { join } from 'node:path';

const FACES = ['1', '2', '3', '4', '5', '6'];

describe('the simulated reader’s calibration', () => {
  it('measures the reader as a session reads with it: a 6 it declines when read right but not when misread as a 5 is misread far more often among the reads it gives', () => {
    const measured = simulatedCalibration({ '6>5': 0.1 }, FACES, 2000, seededRandom(4), { '6': 0.5 });
    const six = measured.faces?.find((f) => f.label === '6');
    // Of 2,000 sixes: 200 misread as 5 (never declined), 1,800 read right of which half declined: 900 kept, so about
    // 200 misreads in 1,100 reads (18 %, not 10 %). Binomial(2000, 0.1) and Binomial(1800, 0.5) stay within these
    // bounds 99.99 % of the time.
    expect(six?.misread).toBeGreaterThan(150);
    expect(six?.misread).toBeLessThan(250);
    expect(six?.read as number).toBeGreaterThan((six?.misread as number) + 820);
    expect(six?.read as number).toBeLessThan((six?.misread as number) + 980);
    expect(six?.bound).toBeGreaterThan(0.15);
    expect(measured.statement).toMatch(/2000 held-back dice per face, the ones it declined left out/);
  });

  it('measures as before when the reader declines nothing: the same draws give the same bounds', () => {
    const a = simulatedCalibration({ '6>5': 0.02 }, FACES, 2000, seededRandom(8));
    const b = simulatedCalibration({ '6>5': 0.02 }, FACES, 2000, seededRandom(8), {});
    expect(b.faces).toEqual(a.faces);
    expect(a.faces?.find((f) => f.label === '6')?.read).toBe(2000);
  });

  it('refuses a session whose simulated reader misreads a face in half the reads it gives, naming the key, before the rig is touched', async () => {
    const config = checkSessionConfig({
      seed: 1,
      dice: [{ label: 'FAIR', type: 'd6' }],
      rig: { driver: 'sim' },
      camera: { source: 'sim', declines: { '6': 0.9 }, misreads: { '6>5': 0.1 } },
    });
    await expect(openSession({ config, dbPath: join(tempDir('dicerig-simcal-'), 's.db'), wallNow: () => 0, log: () => undefined })).rejects.toThrow(
      /config key "camera\.misreadCalibration".*"6" was misread \d+ times in \d+ reads/,
    );
  });
});
