/**
 * `dicerig calibrate --die d6 --camera sim|DEVICE|THROWS`: a D6 check made on the rig. Throws are kept, their dice
 * grouped by the shipped D6 networks (not by the pip counter the check measures), each group named once, and the
 * named throws read whole as a session reads them.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseD6Check, type D6Check } from '../../src/vision/calibration/d6Check.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

const dir = tempDir('dicerig-d6guided-');
const OUT = join(dir, 'rig.json');
const THROWS = join(dir, 'rig.throws');
const GROUPS = join(dir, 'rig.groups');
const FACES = ['1', '2', '3', '4', '5', '6'];

interface GroupListing {
  readonly group: number;
  readonly dice: number;
  readonly looksCocked: boolean;
  readonly simulatorTruth: Record<string, number>;
}

/** The face most of a group's dice truly show: what a person looking at its picture would name it. */
function majority(g: GroupListing): string {
  return Object.entries(g.simulatorTruth).sort((a, b) => b[1] - a[1])[0]?.[0] as string;
}

let listing: GroupListing[];
let first: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  first = await runCli('calibrate', '--die', 'd6', '--camera', 'sim', '--die-size', '72', '--throws', '40', '--channels', '4', '--dice-per-channel', '2', '--seed', '7', '--out', OUT);
  listing = JSON.parse(readFileSync(join(GROUPS, 'groups.json'), 'utf8')) as GroupListing[];
}, 120_000);

describe('calibrate --die d6 --camera (a D6 check on the rig)', () => {
  it('without a terminal, keeps the throws and writes each group of dice the D6 networks see alike, with a labels template naming the faces', () => {
    expect(first.code).toBe(1);
    expect(first.err).toMatch(/^Step 2 of 3: 40 throws, each read as a session reads it\.$/m);
    expect(first.err).toContain(`No terminal to ask in: fill in ${join(GROUPS, 'labels-template.txt')} and run again with --camera ${THROWS} --labels-from FILE`);
    expect(first.err).toContain('names: 1, 2, 3, 4, 5, 6, cocked, skip, split) and pass it with --labels-from');
    expect(readdirSync(join(THROWS, 'images'))).toHaveLength(40);
    expect(readFileSync(join(GROUPS, 'labels-template.txt'), 'utf8')).toContain('Names: 1 to 6 (the face the pictures show), cocked, skip, or split.');
    expect(JSON.parse(readFileSync(join(THROWS, 'kept.json'), 'utf8'))).toMatchObject({ dice: 'd6', dieSizePx: 72, simulated: true });
    // Grouped by the networks, most groups hold one face: on this seed (not the one looked at while building) at
    // least 90 % of the dice lie in a group whose commonest face is theirs.
    const dice = listing.reduce((n, g) => n + g.dice, 0);
    const inMajority = listing.reduce((n, g) => n + (g.simulatorTruth[majority(g)] ?? 0), 0);
    expect(inMajority / dice).toBeGreaterThanOrEqual(0.9);
    // The dice the blob checks call cocked are grouped apart, and the simulated camera's cocked dice are among them.
    expect(listing.filter((g) => g.looksCocked).every((g) => majority(g) === 'cocked')).toBe(true);
  });

  it('named from a file, writes the check from the named throws read whole as a session reads them, and lists every named die the pip counter read as another face', async () => {
    const names = join(dir, 'names.txt');
    writeFileSync(names, listing.map((g) => `${g.group} ${majority(g)}`).join('\n'));
    const r = await runCli('calibrate', '--die', 'd6', '--camera', THROWS, '--labels-from', names, '--out', OUT, '--created-at', '2026-12-04T00:00:00Z');
    expect(r.err).not.toMatch(/dicerig:/);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^Step 2 of 3: 40 throws kept from an earlier check, each read as a session reads it\.$/m);
    const check: D6Check = parseD6Check(JSON.parse(readFileSync(OUT, 'utf8')), OUT);
    expect(check).toMatchObject({ reader: 'd6-pips/1', face: 'top', dieSizePx: 72, images: 40 });
    expect(check.source).toMatch(new RegExp(`^guided check: 40 throws on the throws kept in .*, ${listing.length} groups named; labelled folder ${THROWS}/images \\(40 images, \\d+ dice\\), whole frames read against their empty platforms`));
    // Every die named is in the check: the dice it names are the dice a session's reading locates.
    const named = listing.reduce((n, g) => n + g.dice, 0);
    const counts = check.confusion.counts;
    expect(counts.flat().reduce((a, b) => a + b, 0)).toBe(named);
    // A die of a mixed group is named by its group's commoner face, so the check counts it misread unless the pip
    // counter read it as that face; each such die is listed for the user to check, with what the pip counter read.
    const misreadFaces = check.confusion.rows.reduce((n, truth, i) => n + (FACES.includes(truth) ? FACES.reduce((m, read) => m + (read !== truth ? (counts[i]?.[check.confusion.columns.indexOf(read)] ?? 0) : 0), 0) : 0), 0);
    const mixed = listing.reduce((n, g) => n + g.dice - (g.simulatorTruth[majority(g)] ?? 0), 0);
    expect(mixed).toBeGreaterThan(0);
    expect(misreadFaces).toBeGreaterThanOrEqual(1);
    const doubtful = readFileSync(join(GROUPS, 'doubtful.txt'), 'utf8');
    const pipLines = doubtful.split('\n').filter((l) => /, the pip counter read [1-6]$/.test(l));
    expect(pipLines).toHaveLength(misreadFaces);
    expect(doubtful).toContain(`then calibrate --die d6 --from-labelled ${THROWS} --die-size 72.`);
    expect(doubtful).toContain("# A label line's first number is its class: 0 1, 1 2, 2 3, 3 4, 4 5, 5 6, 6 cocked.");
    for (const line of pipLines) {
      const m = /^\d+\. (.*\.txt) line (\d+): the die at x (\d+), y (\d+), named ([1-6]), the pip counter read ([1-6])$/.exec(line);
      expect(m).not.toBeNull();
      // The line named is the die's: its class is the name given, its box centred where the die lies.
      const [cls, cx, cy] = (readFileSync(m?.[1] as string, 'utf8').split('\n')[Number(m?.[2]) - 1] ?? '').split(' ').map(Number);
      expect(String((cls as number) + 1)).toBe(m?.[5]);
      expect(Math.abs((cx as number) * 1280 - Number(m?.[3]))).toBeLessThanOrEqual(1);
      expect(Math.abs((cy as number) * 720 - Number(m?.[4]))).toBeLessThanOrEqual(1);
    }
    // Read again from the folder alone, the labelled throws give the same check.
    const again = await runCli('calibrate', '--die', 'd6', '--from-labelled', THROWS, '--die-size', '72', '--out', join(dir, 'again.json'), '--created-at', '2026-12-04T00:00:00Z');
    expect(again.code).toBe(0);
    expect(parseD6Check(JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8')), 'again').confusion).toEqual(check.confusion);
  });

  // After the test above: its throws are named by then.
  it('refuses what a guided D6 check cannot do, naming what to give instead', async () => {
    const noSize = await runCli('calibrate', '--die', 'd6', '--camera', 'sim', '--out', join(dir, 'x.json'));
    expect(noSize.code).toBe(1);
    expect(noSize.err).toContain('--die d6 --camera needs --die-size PX: the D6 side in pixels your sessions read with');
    const both = await runCli('calibrate', '--die', 'd6', '--camera', 'sim', '--from-labelled', THROWS, '--die-size', '72');
    expect(both.err).toContain('--die d6 takes --from-labelled DIR (your own dice, labelled by the face on top) or --camera sim|DEVICE|THROWS');
    const stray = await runCli('calibrate', '--die', 'd6', '--from-labelled', THROWS, '--die-size', '72', '--throws', '10');
    expect(stray.err).toContain('--throws is for the guided steps on the rig (--camera), not for --from-labelled.');
    const xwing = await runCli('calibrate', '--die', 'xwing', '--camera', THROWS, '--out', join(dir, 'x.json'));
    expect(xwing.code).toBe(1);
    expect(xwing.err).toContain('these throws were kept for --die d6, not --die xwing');
    const named = await runCli('calibrate', '--die', 'd6', '--camera', THROWS, '--out', join(dir, 'x.json'));
    expect(named.err).toContain(`these throws are named already (${join(THROWS, 'labels')}): calibrate --die d6 --from-labelled ${THROWS} uses those names`);
    const noCamera = await runCli('calibrate', '--die', 'd6', '--camera', '/dev/video-none', '--die-size', '72', '--out', join(dir, 'x.json'));
    expect(noCamera.code).toBe(1);
    expect(noCamera.err).toContain('Camera /dev/video-none could not be opened: it does not exist: plug the camera in and check `ls /dev/video*` (or `v4l2-ctl --list-devices`), then set --camera to it.');
  });
});
