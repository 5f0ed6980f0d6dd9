/**
 * `dicerig run --keep-frames DIR`: the rig throws the dice a guided calibration or D6 check names. Every frame a
 * throw is read from is kept, with the empty platform, as kept throws `calibrate --camera DIR` replays.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseD6Check } from '../../src/vision/calibration/d6Check.js';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

const dir = tempDir('dicerig-keepframes-');

// 16 rolls a die: what these tests check of the kept frames (one a throw, named in sequence, replayed whole by a
// check) does not depend on how many there are, and 40 cost two and a half times as much to throw and replay.
function config(stopping = 'budgetRolls: 16', name = 'rig.yaml', lighting = 'studio'): string {
  const file = join(dir, name);
  writeFileSync(file, `seed: 12\ndice:\n  - { label: kf-A, type: d6 }\n  - { label: kf-B, type: d6 }\n  - { label: kf-C, type: d6 }\nrig: { driver: sim }\ncamera: { source: sim, dieSizePx: 72, lighting: ${lighting} }\nstopping: { ${stopping} }\n`);
  return file;
}

describe('dicerig run --keep-frames', () => {
  it('keeps every frame the session reads a throw from, with its empty platform, as kept throws a D6 check then names', async () => {
    const db = join(dir, 'rolls.db');
    const frames = join(dir, 'frames');
    const r = await runCli('run', config(), '--db', db, '--keep-frames', frames, '--plain');
    expect(r.err).not.toMatch(/dicerig:/);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`every frame a throw is read from is kept in ${frames}, with the empty platform: calibrate --die d6 --camera ${frames} groups their dice for you to name`);
    const store = RollStore.open(db, { mustExist: true });
    const throws = store.lastThrowIndex(1);
    store.close();
    // One frame a throw (this rig never faults), named in sequence, each with what the simulated camera drew.
    const images = readdirSync(join(frames, 'images')).sort();
    expect(images).toHaveLength(throws);
    expect(images[0]).toBe('throw-0001.jpg');
    expect(readdirSync(join(frames, 'truth'))).toHaveLength(throws);
    expect(JSON.parse(readFileSync(join(frames, 'kept.json'), 'utf8'))).toMatchObject({ channels: 3, dicePerChannel: 1, dieSizePx: 72, simulated: true, seed: 12, dice: 'd6' });

    // The guided D6 check replays them: its groups named as a person would (by what most of each group shows).
    const out = join(dir, 'check.json');
    const first = await runCli('calibrate', '--die', 'd6', '--camera', frames, '--out', out);
    expect(first.err).toMatch(new RegExp(`^Step 2 of 3: ${throws} throws kept from an earlier check`, 'm'));
    const listing = JSON.parse(readFileSync(join(dir, 'check.groups', 'groups.json'), 'utf8')) as { group: number; simulatorTruth: Record<string, number> }[];
    const names = join(dir, 'names.txt');
    writeFileSync(names, listing.map((g) => `${g.group} ${Object.entries(g.simulatorTruth).sort((a, b) => b[1] - a[1])[0]?.[0]}`).join('\n'));
    const named = await runCli('calibrate', '--die', 'd6', '--camera', frames, '--labels-from', names, '--out', out);
    expect(named.err).not.toMatch(/dicerig:/);
    const check = parseD6Check(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(check.dieSizePx).toBe(72);
    expect(check.images).toBe(throws);
    expect(check.source).toContain(`guided check: ${throws} throws on the throws kept in ${frames} (taken with simulated camera`);
  });

  it('refuses a folder that holds files before the session is stored, and does not go with --campaign', async () => {
    const db = join(dir, 'refused.db');
    const taken = join(dir, 'taken');
    const first = await runCli('run', config(), '--db', db, '--keep-frames', taken, '--json');
    expect(first.code).toBe(0);
    const again = await runCli('run', config(), '--db', db, '--keep-frames', taken, '--json');
    expect(again.code).toBe(1);
    expect(again.err).toContain('the folder to keep the frames in already holds files: choose an empty or new folder');
    const store = RollStore.open(db, { mustExist: true });
    expect(store.sessions()).toHaveLength(1);
    store.close();
    const campaign = await runCli('run', '--campaign', 'c', '--rig', 'r1', '--fleet', 'postgres://nowhere/x', '--keep-frames', join(dir, 'c'));
    expect(campaign.err).toContain('--keep-frames keeps the frames of one session: run it with a session config, not --campaign');
  });

  it('continues the frames of a resumed session in its folder, and refuses a folder of frames kept against another empty platform', async () => {
    const db = join(dir, 'resumed.db');
    const frames = join(dir, 'resumed');
    // A time budget of 0.005 h (18 s of rig time, a handful of throws) ends each run.
    const file = config('budgetRolls: 500, budgetHours: 0.005', 'timed.yaml');
    expect((await runCli('run', file, '--db', db, '--keep-frames', frames, '--json')).code).toBe(0);
    const firstRun = readdirSync(join(frames, 'images')).length;
    expect(firstRun).toBeGreaterThan(0);
    // The time budget counts all the session's runs: the resume adds hours to roll on.
    const second = await runCli('run', file, '--db', db, '--keep-frames', frames, '--resume', '1', '--more-hours', '0.005', '--plain');
    expect(second.code).toBe(0);
    expect(second.out).toContain(`kept in ${frames} (after the ${firstRun} an earlier run of this session kept)`);
    const store = RollStore.open(db, { mustExist: true });
    const throws = store.lastThrowIndex(1);
    store.close();
    // One frame a throw over both runs, named in one sequence: a replay reads them all.
    expect(readdirSync(join(frames, 'images'))).toHaveLength(throws);
    expect(throws).toBeGreaterThan(firstRun);
    const replay = await runCli('calibrate', '--die', 'd6', '--camera', frames, '--out', join(dir, 'resumed-check.json'));
    expect(replay.err).toMatch(new RegExp(`^Step 2 of 3: ${throws} throws kept from an earlier check`, 'm'));

    // Another light: another empty platform, so its frames cannot join these.
    const dim = config('budgetRolls: 500, budgetHours: 0.005', 'dim.yaml', 'dim');
    const other = join(dir, 'other.db');
    expect((await runCli('run', dim, '--db', other, '--json')).code).toBe(0);
    const refused = await runCli('run', dim, '--db', other, '--keep-frames', frames, '--resume', '1', '--more-hours', '0.005', '--json');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/the folder to keep the frames in holds frames kept against another empty platform \(reference\.png differs from this run's by [\d.]+ levels on average, over 6\): keep this run's frames in a new folder/);
  });

  it("keeps an X-Wing session's frames for the X-Wing guided steps, and refuses them for a D6 check", async () => {
    const file = join(dir, 'xwing.yaml');
    writeFileSync(file, 'seed: 14\ndice:\n  - { label: kx-A, type: red }\n  - { label: kx-B, type: green }\nrig: { driver: sim }\nstopping: { budgetRolls: 12 }\n');
    const frames = join(dir, 'xwing-frames');
    const r = await runCli('run', file, '--db', join(dir, 'xwing.db'), '--keep-frames', frames, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(frames, 'kept.json'), 'utf8'))).toMatchObject({ channels: 2, dicePerChannel: 1, dice: 'xwing' });
    // Replayed by the X-Wing guided steps: grouped, and a labels template written for the names.
    const guided = await runCli('calibrate', '--die', 'xwing', '--camera', frames, '--out', join(dir, 'xwing-profile.json'));
    expect(guided.err).toMatch(/^Step 3 of 4: \d+ throws kept from an earlier calibration\.$/m);
    expect(guided.err).toContain(`No terminal to ask in: fill in ${join(dir, 'xwing-profile.groups', 'labels-template.txt')}`);
    const d6 = await runCli('calibrate', '--die', 'd6', '--camera', frames, '--out', join(dir, 'xwing-d6.json'));
    expect(d6.err).toContain('these throws were kept for --die xwing, not --die d6');
  });
});
