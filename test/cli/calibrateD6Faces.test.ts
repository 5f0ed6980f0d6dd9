/**
 * `dicerig calibrate --die d6 --learn-faces`: D6s with a logo in place of a face's pips, which the pip counter cannot
 * count, read by faces learned on the user's own dice; the check measures that reader on dice it did not learn from,
 * and a session given the check reads with it.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/sqlite.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { d6CheckDeclines, parseD6Check, sealD6Check, type D6Check } from '../../src/vision/calibration/d6Check.js';
import { tempDir } from '../store/support/fixtures.js';
import { main } from '../../src/cli/main.js';
import { runCli } from './runCli.js';

const dir = tempDir('dicerig-d6faces-');
const LOGO = join(dir, 'logo');
const FACES = ['1', '2', '3', '4', '5', '6'];

function readCheck(file: string): D6Check {
  return parseD6Check(JSON.parse(readFileSync(file, 'utf8')), file);
}

function declinedShare(check: D6Check, face: string): number {
  const d = d6CheckDeclines(check, FACES).find((x) => x.face === face);
  return (d?.declined ?? 0) / (d?.dice ?? 1);
}

function sessionConfig(name: string, extra: string): string {
  const file = join(dir, `${name}.yaml`);
  const die = (l: string): string => `  - { label: ${l}, type: d6, simulatedLogo: "6" }\n`;
  writeFileSync(file, `name: ${name}\nseed: 33\ndice:\n${die('logo-A')}${die('logo-B')}rig:\n  driver: sim\ncamera: { source: sim, lighting: window }\nstopping: { budgetRolls: 120 }\n${extra}`);
  return file;
}

/** Per die label: how many rolls were read as each face, and how many were kept unresolved. */
function facesRead(db: string): Map<string, Record<string, number>> {
  const store = openDatabase(db, { readonly: true });
  try {
    const rows = store.prepare("SELECT d.label AS label, CASE r.resolution WHEN 'unresolved' THEN 'unresolved' ELSE r.face_id END AS face, COUNT(*) AS n FROM rolls r JOIN dice d ON d.id = r.die_id JOIN throws t ON t.id = r.throw_id WHERE t.status = 'ok' GROUP BY 1, 2").all() as { label: string; face: string; n: number }[];
    const out = new Map<string, Record<string, number>>();
    for (const r of rows) out.set(r.label, { ...(out.get(r.label) ?? {}), [r.face]: r.n });
    return out;
  } finally {
    store.close();
  }
}

/**
 * The logo dice thrown by seed 33 without a check, their frames kept: what the pip counter alone makes of them
 * (read by the learned-faces session test) and the throws a guided check learns from (read by the guided test).
 * Keeping the frames changes no throw or read; one run serves both, each test only reading its store and frames.
 */
const KEPT = join(dir, 'kept');
const BARE_DB = join(dir, 'bare.db');
let bareRun: ReturnType<typeof runCli> | undefined;
function bareSession(): ReturnType<typeof runCli> {
  bareRun ??= runCli('run', sessionConfig('bare', ''), '--db', BARE_DB, '--keep-frames', KEPT, '--plain');
  return bareRun;
}

beforeAll(async () => {
  const sim = await runCli('vision', 'simulate', '--dice', 'd6', '--logo', '6', '--out', LOGO, '--seed', '70400', '--frames', '24', '--empty-platform', '--lighting', 'studio,window,desk-lamp');
  expect(sim.err).toBe('');
  expect(sim.code).toBe(0);
}, 120_000);

describe('calibrate --die d6 --learn-faces', () => {
  const plain = join(dir, 'plain.json');
  const learned = join(dir, 'learned.json');

  it("reads the logo faces the pip counter declines, measured on each image's dice with faces learned on the other images'", async () => {
    const p = await runCli('calibrate', '--die', 'd6', '--from-labelled', LOGO, '--die-size', '72', '-o', plain);
    expect(p.code).toBe(0);
    expect(declinedShare(readCheck(plain), '6')).toBeGreaterThan(0.8);
    expect(p.out).toContain("A face shown otherwise than with pips (a logo) is not counted, and glare or dim light on the pips declines them too: make the check again with --learn-faces to learn your dice's faces from these dice.");

    const r = await runCli('calibrate', '--die', 'd6', '--from-labelled', LOGO, '--die-size', '72', '-o', learned, '--learn-faces');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^Learning your dice's faces from \d+ labelled dice, in 5 folds of the images and once on all of them\.\.\.\n( {2}faces learned without fold \d of 5\n){5} {2}learned on all the dice\n$/);
    const check = readCheck(learned);
    expect(check.head?.nets).toBe('d6-net/6');
    expect(check.reader).toMatch(/^d6-pips\/1\+d6-faces\/1@d6-net\/6:[0-9a-f]{12}$/);
    expect(check.source).toMatch(/; faces learned on these dice, each image's dice read with faces learned on the other images' \(5 folds\)$/);
    expect(r.out).toContain(`reader ${check.reader}`);
    for (const face of FACES) expect(declinedShare(check, face)).toBeLessThanOrEqual(0.05);
    // Among the flat dice read, none is read as another face.
    const { rows, columns, counts } = check.confusion;
    for (const face of FACES) {
      const row = counts[rows.indexOf(face)] as number[];
      for (const other of FACES.filter((f) => f !== face)) expect(row[columns.indexOf(other)]).toBe(0);
    }
    expect(r.out).not.toContain('warning');
    // Six fits of the faces (some 40 s of CPU): on a busy 2-core machine it timed out at 120 s, on the code before too.
  }, 240_000);

  it('has a session read its logo dice with the learned faces, and record the 6s the pip counter alone kept unresolved', async () => {
    const bare = BARE_DB;
    const withFaces = join(dir, 'faces.db');
    expect((await bareSession()).code).toBe(0);
    const run = await runCli('run', sessionConfig('faces', `calibration: ${learned}\n`), '--db', withFaces, '--plain');
    expect(run.code).toBe(0);
    const check = readCheck(learned);
    expect(run.out).toContain(`measured by D6 check "learned" (${check.hash.slice(7, 19)}`);
    expect(run.out + run.err).toContain(`reading the dice with the pip counter and the faces D6 check "learned" learned on your dice (${check.reader})`);
    const store = openDatabase(withFaces, { readonly: true });
    try {
      expect(store.prepare('SELECT DISTINCT classifier_version AS v FROM rolls WHERE classifier_version IS NOT NULL').all()).toEqual([{ v: check.reader }]);
    } finally {
      store.close();
    }
    // The same seed throws the same dice: the faces the pip counter reads are read alike, and the 6s it kept unresolved are now read.
    const before = facesRead(bare);
    const after = facesRead(withFaces);
    for (const label of ['logo-A', 'logo-B']) {
      const b = before.get(label) ?? {};
      const a = after.get(label) ?? {};
      expect(b['6']).toBeUndefined();
      expect(b.unresolved).toBeGreaterThan(10);
      for (const face of ['1', '2', '3', '4', '5']) expect(a[face]).toBe(b[face]);
      expect(a['6']).toBeGreaterThanOrEqual(0.9 * (b.unresolved as number));
      expect((a['6'] ?? 0) + (a.unresolved ?? 0)).toBe(b.unresolved);
    }
  }, 120_000);

  it('learns the faces of logo dice the rig threw and a person named a group at a time, doubting a die by faces learned on the other throws, not by networks that never saw the logo', async () => {
    const kept = KEPT;
    expect((await bareSession()).code).toBe(0);
    const out = join(dir, 'rig-check.json');
    // A person at a terminal names each group by the face most of its dice show, as one looking at its picture would:
    // the throws are grouped and read once (named in a file instead, they are grouped once more to write the template).
    const asked: string[] = [];
    let err = '';
    const io = {
      exitCode: 0,
      out: () => undefined,
      err: (t: string) => void (err += t),
      setExitCode(c: number) {
        io.exitCode = c;
      },
      ask(question: string) {
        asked.push(question);
        const groups = JSON.parse(readFileSync(join(dir, 'rig-check.groups', 'groups.json'), 'utf8')) as { group: number; simulatorTruth: Record<string, number> }[];
        const group = groups.find((g) => g.group === Number(/^Group (\d+):/.exec(question)?.[1]));
        return Promise.resolve(Object.entries(group?.simulatorTruth ?? {}).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'skip');
      },
    };
    const code = await main(['node', 'dicerig', 'calibrate', '--die', 'd6', '--camera', kept, '--learn-faces', '-o', out], io);
    expect(err).not.toMatch(/dicerig:/);
    expect(code).toBe(0);
    expect(asked.length).toBeGreaterThan(0);
    const check = readCheck(out);
    expect(check.head).toBeDefined();
    expect(check.source).toMatch(/^guided check: \d+ throws on the throws kept in .*; faces learned on these dice, each image's dice read with faces learned on the other images' \(5 folds\)$/);
    expect(declinedShare(check, '6')).toBeLessThanOrEqual(0.05);
    // The shipped networks never saw the logo: their reads of it doubt no die here.
    const doubtful = join(dir, 'rig-check.groups', 'doubtful.txt');
    const listed = existsSync(doubtful) ? readFileSync(doubtful, 'utf8') : '';
    expect(listed).not.toContain('the D6 networks read');
    expect(listed.split('\n').filter((l) => / named 6, /.test(l)).length).toBeLessThanOrEqual(2);
  }, 180_000);

  it('reads labelled dice with the faces a check learned in vision eval, on dice of another seed, and refuses a D6 check with --reader', async () => {
    const other = join(dir, 'logo-other');
    expect((await runCli('vision', 'simulate', '--dice', 'd6', '--logo', '6', '--out', other, '--seed', '70500', '--frames', '12', '--empty-platform', '--lighting', 'evening')).code).toBe(0);
    const r = await runCli('vision', 'eval', '--die', 'd6', '--calibration', learned, '--images', other, '--die-size', '72', '--json');
    expect(r.err).toBe('');
    const j = JSON.parse(r.out) as { classifierVersion: string; note: string; perFace: { className: string; recall: number }[]; summary: { accuracyAmongRead: number } };
    expect(j.classifierVersion).toBe(readCheck(learned).reader);
    expect(j.note).toContain('read with the faces the D6 check');
    expect(j.perFace.find((c) => c.className === '6')?.recall).toBeGreaterThanOrEqual(0.9);
    expect(j.summary.accuracyAmongRead).toBe(1);
    const pips = JSON.parse((await runCli('vision', 'eval', '--die', 'd6', '--calibration', plain, '--images', other, '--die-size', '72', '--json')).out) as typeof j;
    expect(pips.classifierVersion).toBe('d6-pips/1');
    expect(pips.perFace.find((c) => c.className === '6')?.recall).toBeLessThan(0.2);
    for (const size of [[], ['--die-size', '60']]) {
      const crops = await runCli('vision', 'eval', '--die', 'd6', '--calibration', learned, '--images', other, ...size);
      expect(crops.code).toBe(1);
      expect(crops.err).toContain("the D6 check's faces were learned from the crops a session cuts from whole frames with dice 72 px across: read a folder with its empty platforms with --die-size 72");
    }
    const both = await runCli('vision', 'eval', '--die', 'd6', '--calibration', learned, '--reader', 'pips', '--images', other);
    expect(both.code).toBe(1);
    expect(both.err).toContain('--reader and --calibration together');
  }, 120_000);

  it('learns the faces a camera under a clear platform sees, and records each die by the face on top, its opposite', async () => {
    // The same frames as seen from below: each die is labelled by the face opposite the one the picture shows.
    const below = join(dir, 'below');
    cpSync(LOGO, below, { recursive: true });
    const classes = readFileSync(join(below, 'labels', 'classes.txt'), 'utf8').trim().split('\n');
    const opposite: Record<string, string> = { 1: '6', 2: '5', 3: '4', 4: '3', 5: '2', 6: '1' };
    for (const f of readdirSync(join(below, 'labels')).filter((n) => n !== 'classes.txt')) {
      const file = join(below, 'labels', f);
      const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => {
        const [cls, ...box] = line.split(' ');
        const name = classes[Number(cls)] as string;
        return [classes.indexOf(opposite[name] ?? name), ...box].join(' ');
      });
      writeFileSync(file, `${lines.join('\n')}\n`);
    }
    const out = join(dir, 'below.json');
    const r = await runCli('calibrate', '--die', 'd6', '--from-labelled', below, '--die-size', '72', '--face', 'bottom', '--learn-faces', '-o', out);
    expect(r.code).toBe(0);
    const check = readCheck(out);
    expect(check.face).toBe('bottom');
    // The logo is on the face the camera sees as 6, recorded as the 1 on top.
    for (const face of FACES) expect(declinedShare(check, face)).toBeLessThanOrEqual(0.05);
    const { rows, columns, counts } = check.confusion;
    for (const face of FACES) {
      const row = counts[rows.indexOf(face)] as number[];
      expect(row[columns.indexOf(face)]).toBeGreaterThan(20);
      for (const other of FACES.filter((f) => f !== face)) expect(row[columns.indexOf(other)]).toBe(0);
    }
  }, 120_000);

  it('refuses to learn faces for X-Wing dice, from crops without their empty platforms, or from too few dice of a face', async () => {
    const xwing = await runCli('calibrate', '--die', 'red', '--from-labelled', LOGO, '--learn-faces');
    expect(xwing.code).toBe(1);
    expect(xwing.err).toContain('--learn-faces is for D6s (--die d6): an X-Wing profile always learns your dice\'s faces.');
    const crops = join(dir, 'crops');
    expect((await runCli('vision', 'simulate', '--dice', 'd6', '--logo', '6', '--out', crops, '--frames', '2')).code).toBe(0);
    const noEmpty = await runCli('calibrate', '--die', 'd6', '--from-labelled', crops, '--learn-faces', '-o', join(dir, 'no.json'));
    expect(noEmpty.code).toBe(1);
    expect(noEmpty.err).toMatch(/--learn-faces learns the faces from the crops a session cuts from whole frames, so it needs a folder with its empty platforms/);
    const few = join(dir, 'few');
    expect((await runCli('vision', 'simulate', '--dice', 'd6', '--logo', '6', '--out', few, '--frames', '3', '--empty-platform')).code).toBe(0);
    const thin = await runCli('calibrate', '--die', 'd6', '--from-labelled', few, '--die-size', '72', '--learn-faces', '-o', join(dir, 'thin.json'));
    expect(thin.code).toBe(1);
    expect(thin.err).toMatch(/--learn-faces: too few dice of (\d \(\d\), )*\d \(\d\) to learn their faces: at least 10 flat dice of each face are needed; label or throw more dice of those faces\./);
    expect((await runCli('vision', 'simulate', '--dice', 'red', '--logo', '6', '--out', join(dir, 'red'))).err).toContain('--logo is a D6 face shown as a logo; --dice red has no pips to replace.');
    // The logos named as a face they are not: their own face has no die, and the message says how logos are named.
    const misnamed = join(dir, 'misnamed');
    cpSync(LOGO, misnamed, { recursive: true });
    const classes = readFileSync(join(misnamed, 'labels', 'classes.txt'), 'utf8').trim().split('\n');
    for (const f of readdirSync(join(misnamed, 'labels')).filter((n) => n !== 'classes.txt')) {
      const file = join(misnamed, 'labels', f);
      writeFileSync(file, readFileSync(file, 'utf8').replace(new RegExp(`^${classes.indexOf('6')} `, 'gm'), `${classes.indexOf('1')} `));
    }
    const wrong = await runCli('calibrate', '--die', 'd6', '--from-labelled', misnamed, '--die-size', '72', '--learn-faces', '-o', join(dir, 'misnamed.json'));
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('--learn-faces: too few dice of 6 (0) to learn their faces: at least 10 flat dice of each face are needed; label or throw more dice of that face. No die is named 6: a group of logos is named by the face the logo stands for, the one no other group shows.');
  }, 120_000);

  it("refuses a check whose reader is not its learned faces', and a session refuses faces learned on other D6 networks", async () => {
    const check = readCheck(learned);
    const { hash: _hash, ...rest } = check;
    const other = sealD6Check({ ...rest, reader: 'd6-pips/1' });
    expect(() => parseD6Check(JSON.parse(JSON.stringify(other)), 'x.json')).toThrow(/its reader d6-pips\/1 is not the one its learned faces \(d6-faces\/1@d6-net\/6:[0-9a-f]{12}\) make/);
    const head = { ...(check.head as NonNullable<D6Check['head']>), nets: 'd6-net/5' };
    const old = join(dir, 'old-nets.json');
    const { d6FaceHeadId } = await import('../../src/vision/calibration/d6FaceHead.js');
    writeFileSync(old, JSON.stringify(sealD6Check({ ...rest, head, reader: `d6-pips/1+${d6FaceHeadId(head)}` })));
    const run = await runCli('run', sessionConfig('old', `calibration: ${old}\n`), '--db', join(dir, 'old.db'));
    expect(run.code).not.toBe(0);
    expect(run.err).toContain("the D6 check's learned faces read the embedding of the D6 networks d6-net/5, but this dicerig ships d6-net/6: make the check again with --learn-faces.");
  }, 60_000);
});
