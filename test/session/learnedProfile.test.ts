/**
 * A session started with a learned calibration profile reads its dice with the
 * learned reader, records the profile's hash with the rig, and allows for the
 * misreads the profile's validation dice measured (a calibration too thin to
 * bound them is refused before the rig is touched).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSessionConfig } from '../../src/session/config.js';
import { runSession } from '../../src/session/runner.js';
import { misreadLines } from '../../src/stats/dieVerdict.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import { RollStore } from '../../src/store/rollStore.js';
import { buildLearnedProfile } from '../../src/vision/calibration/learnedProfile.js';
import type { LearnedProfile } from '../../src/vision/calibration/profile.js';
import { shortHash } from '../../src/vision/calibration/profile.js';
import { profileCockedReads } from '../../src/vision/calibration/profileMisreads.js';
import type { FaceRead } from '../../src/vision/faceRead.js';
import { learnedCutter, shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import { xwingGlare } from '../../src/vision/learned/glare.js';
import type { LearnedModel } from '../../src/vision/learned/model.js';
import { readLabelledCrops } from '../../src/vision-io/labelledCrops.js';
import { tempDir } from '../store/support/fixtures.js';

const FIXTURE = join(import.meta.dirname, '..', 'support', 'renders', 'tune-xwing');
const dir = tempDir('dicerig-learned-session-');
const PROFILE = join(dir, 'learned.json');
const THIN = join(dir, 'thin.json');
let profile: LearnedProfile;
let thin: LearnedProfile;

beforeAll(async () => {
  const model = shippedLearnedModels['xwing'] as LearnedModel;
  const folder = await readLabelledCrops(join(FIXTURE, 'images'), join(FIXTURE, 'labels'), () => true, 1.5, learnedCutter(model, 54));
  profile = buildLearnedProfile(folder.crops, model, { name: 'fixture', createdAt: '2026-01-01T00:00:00.000Z', source: 'test fixture', hfovDeg: 54, fineTune: false }).profile;
  writeFileSync(PROFILE, JSON.stringify(profile));
  // Four images: too few dice of some face to bound its misreads.
  const first = [...new Set(folder.crops.map((c) => c.group))].sort().slice(0, 4);
  thin = buildLearnedProfile(folder.crops.filter((c) => first.includes(c.group)), model, { name: 'thin', createdAt: '2026-01-01T00:00:00.000Z', source: 'test fixture', hfovDeg: 54, fineTune: false }).profile;
  writeFileSync(THIN, JSON.stringify(thin));
}, 30_000);

const dice = [
  { label: 'R1', type: 'red' },
  { label: 'G1', type: 'green' },
];

describe('a session with a learned calibration profile', () => {
  it('is refused when the profile validated too few dice of a face to bound its misreads', async () => {
    const config = checkSessionConfig({ seed: 5, dice, rig: { driver: 'sim' }, calibration: THIN, stopping: { budgetRolls: 10 } });
    await expect(openSession({ config, dbPath: ':memory:', wallNow: () => 1_700_000_000_000 })).rejects.toThrow(
      new RegExp(`calibration profile "thin" \\(${shortHash(thin)}, validation dice\\): ".*" was misread 0 times in \\d+ reads it measured, which bounds its misread rate only at`),
    );
  });

  it('is refused before anything is opened when X-Wing dice face a real camera with no profile, naming the key and the fix', async () => {
    const camera = { source: 'device', device: '/dev/video-none', channels: [{ x: 0, y: 0, width: 100, height: 100 }, { x: 100, y: 0, width: 100, height: 100 }], dieSizePx: 72 };
    const db = join(dir, 'never.db');
    const config = checkSessionConfig({ seed: 5, dice, rig: { driver: 'sim' }, camera, stopping: { budgetRolls: 10 } });
    await expect(openSession({ config, dbPath: db, wallNow: () => 1_700_000_000_000 })).rejects.toThrow(
      /config key "calibration": X-Wing dice seen by a real camera are read with a calibration profile made on your own dice: run dicerig calibrate .*the default profile was made on the simulated camera/,
    );
    expect(existsSync(db)).toBe(false);
    // D6s are read by their pips and need no profile: the same camera gets past this check (and fails on the missing
    // device), saying first that without a D6 check their misreads are assumed none.
    const d6 = checkSessionConfig({ seed: 5, dice: [{ label: 'A', type: 'd6' }, { label: 'B', type: 'd6' }], rig: { driver: 'sim' }, camera, stopping: { budgetRolls: 10 } });
    const said: string[] = [];
    await expect(openSession({ config: d6, dbPath: join(dir, 'd6.db'), wallNow: () => 1_700_000_000_000, log: (m) => said.push(m) })).rejects.not.toThrow(/config key "calibration"/);
    expect(said).toContain(
      "the pip reader's misreads on your dice are not measured, so the verdicts assume there are none: make a D6 check of your dice as this camera sees them (dicerig calibrate --die d6 --camera DEVICE --die-size PX -o CHECK.json: throws on the rig, named a group at a time; or --from-labelled DIR for dice labelled already; --learn-faces also reads a face shown with a logo) and give it as calibration",
    );
  });

  it('says before the rig is touched that its validation dice bound misreads too widely to certify a die within the margin, and how to narrow them', async () => {
    const config = checkSessionConfig({ seed: 5, dice, rig: { driver: 'sim' }, calibration: PROFILE, stopping: { budgetRolls: 10 } });
    const said: string[] = [];
    const opened = await openSession({ config, dbPath: ':memory:', wallNow: () => 1_700_000_000_000, log: (m) => said.push(m) });
    await opened.close();
    const rig = said.findIndex((m) => m.startsWith('rig '));
    const notices = said.filter((m) => m.includes('the misread bounds its verdicts allow for'));
    expect(notices.map((m) => m.split(':')[0])).toEqual(['X-Wing red attack die (d8)', 'X-Wing green defense die (d8)']);
    for (const m of notices) {
      expect(m).toMatch(new RegExp(`\\(calibration profile "fixture" \\(${shortHash(profile)}, validation dice\\); .* let no die of this type be certified within ±5 %`));
      expect(m).toContain(`check the profile on new rolls (dicerig calibrate --check ${PROFILE} --camera DEVICE -o NEW.json: new throws on the rig, named a group at a time; or --images DIR instead of --camera, for rolls labelled already) and run with the profile it writes`);
      expect(said.indexOf(m)).toBeLessThan(rig);
    }
  });

  it('reads the dice with the learned reader and records the profile hash with the rig', async () => {
    // The shipped network is validated on all 22 fixture images (106 dice): enough to bound every face's misreads.
    const config = checkSessionConfig({
      seed: 5,
      dice,
      rig: { driver: 'sim' },
      calibration: PROFILE,
      stopping: { budgetRolls: 500, budgetHours: 0.003 },
    });
    const db = join(dir, 's.db');
    const opened = await openSession({ config, dbPath: db, wallNow: () => 1_700_000_000_000 });
    const reads: FaceRead[] = [];
    let result: Awaited<ReturnType<typeof runSession>> | undefined;
    try {
      const deps = runnerDeps(opened);
      result = await runSession(
        {
          ...deps,
          readThrow: (image) => {
            const reading = deps.readThrow(image);
            reads.push(...reading.readings.map((r) => r.read));
            return reading;
          },
        },
        opened.plan,
      );
    } finally {
      await opened.close();
    }
    const version = `${(shippedLearnedModels.xwing as LearnedModel).version}${profile.classifier.head ? `+${profile.classifier.head.version}` : ''}+${xwingGlare.version}+${shortHash(profile)}`;
    // Reads the pipeline's own checks decline (touching dice, outlines) carry the reader's version too.
    expect(reads.length).toBeGreaterThan(4);
    expect(new Set(reads.map((r) => r.classifierVersion))).toEqual(new Set([version]));
    // The simulated camera draws flat dice, not the renders the network knows: measured, it reads some of them.
    expect(reads.filter((r) => r.status === 'read').length).toBeGreaterThan(0);
    // Most drawn dice are called cocked, far more than the fixture's renders lay cocked: the bound on cocked dice read
    // as a face was measured at the fixture's rate, and the session's misread lines say so.
    const { cocked, rolls } = result?.totals ?? { cocked: 0, rolls: 0 };
    const lines = misreadLines(result?.verdicts.dice ?? [], { cocked, rolls });
    expect(lines.filter((l) => l.startsWith("This session's dice came to rest cocked"))).toEqual([
      expect.stringMatching(new RegExp(`in \\d+ % of rolls \\(${cocked} of ${rolls}\\), more often than the dice of calibration profile "fixture" .* lay cocked \\(\\d+ of ${profileCockedReads(profile).dice}, [\\d.]+ %\\)`)),
    ]);
    const store = RollStore.open(db, { mustExist: true });
    try {
      const session = store.getSession(1);
      expect(store.getRig(session?.rigId as number)?.calibrationHash).toBe(profile.hash);
    } finally {
      store.close();
    }
  }, 60_000);
});
