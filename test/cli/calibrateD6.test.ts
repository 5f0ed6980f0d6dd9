/**
 * `dicerig calibrate --die d6`: how the pip reader a session reads D6s with reads the user's own labelled dice, kept
 * as a D6 check a D6 session then bounds its misreads by, instead of assuming none.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { D6_CHECK_FORMAT, D6_CHECK_VERSION, d6CheckMisreadAssumption, parseD6Check, sealD6Check, type D6Check } from '../../src/vision/calibration/d6Check.js';
import { formatD6CheckSummary } from '../../src/cli/commands/calibrateD6.js';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';
import { encodePng } from '../../src/camera/decode.js';

const dir = tempDir('dicerig-d6check-');
const FOLDER = join(dir, 'd6');
const CHECK = join(dir, 'check.json');
const FACES = ['1', '2', '3', '4', '5', '6'];

function sessionConfig(extra: string, dice = '  - { label: mine-A, type: d6 }\n  - { label: mine-B, type: d3 }\n'): string {
  const file = join(dir, `run-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, `seed: 5\ndice:\n${dice}rig:\n  driver: sim\nstopping: { budgetRolls: 20 }\n${extra}`);
  return file;
}

beforeAll(async () => {
  const sim = await runCli('vision', 'simulate', '--dice', 'd6', '--out', FOLDER, '--seed', '70200', '--frames', '12', '--cocked-rate', '0.03', '--lighting', 'studio');
  expect(sim.code).toBe(0);
}, 120_000);

/** calibrate --die d6 of FOLDER into CHECK, and again with --json: each run once, for the tests that read what it said. */
let checkRun: ReturnType<typeof runCli> | undefined;
let checkJsonRun: ReturnType<typeof runCli> | undefined;
const madeCheck = (): ReturnType<typeof runCli> => (checkRun ??= runCli('calibrate', '--die', 'd6', '--from-labelled', FOLDER, '-o', CHECK, '--created-at', '2026-12-04T00:00:00Z'));
const madeCheckJson = (): ReturnType<typeof runCli> => (checkJsonRun ??= runCli('calibrate', '--die', 'd6', '--from-labelled', FOLDER, '-o', join(dir, 'again.json'), '--name', 'check', '--json'));

describe('calibrate --die d6', () => {
  it('reads every labelled die with the session\'s pip reader and writes a check of what it read, with the misreads a session would allow for', async () => {
    const r = await madeCheck();
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const check: D6Check = parseD6Check(JSON.parse(readFileSync(CHECK, 'utf8')), CHECK);
    expect(check).toMatchObject({ name: 'check', reader: 'd6-pips/1', face: 'top', createdAt: '2026-12-04T00:00:00.000Z' });
    // Every labelled box is one die of the confusion, cocked ones included.
    const boxes = readFileSync(join(FOLDER, 'labels', 'classes.txt'), 'utf8').trim().split('\n');
    expect(boxes).toEqual(expect.arrayContaining(FACES));
    const labelled = Number(/\((\d+) images, (\d+) dice\)/.exec(check.source)?.[2]);
    expect(check.confusion.counts.flat().reduce((a, b) => a + b, 0)).toBe(labelled);
    expect(check.confusion.rows).toEqual(expect.arrayContaining([...FACES, 'cocked']));
    const misreads = d6CheckMisreadAssumption(check, FACES);
    expect(r.out).toMatch(new RegExp(`^D6 check written to ${CHECK} \\(${check.hash.slice(7, 19)}; reader d6-pips/1; face seen: top\\)\\.\\n`));
    for (const f of misreads.faces ?? []) expect(r.out).toContain(`${f.label}: ${f.misread} of ${f.read} misread, bound `);
    expect(r.out).toMatch(/verdicts with it: a session can certify a fair D6 to ±[\d.]+ % at best/);
    expect(r.out).toContain(`give it to a D6 session as "calibration: ${CHECK}"`);
    // --json gives the same check and the misreads a session would allow for with it.
    const j = JSON.parse((await madeCheckJson()).out) as { hash: string; misreads: { statement: string } };
    expect(j.hash).toBe(check.hash);
    expect(j.misreads.statement).toBe(misreads.statement);
  });

  it('gives in JSON what its summary says: each face\'s declines, whether they are alike, the certifiable margin and the warnings', async () => {
    // The summary and the JSON of the check the test above made (the same folder's check, run once each).
    const text = await madeCheck();
    const j = JSON.parse((await madeCheckJson()).out) as {
      declines: { face: string; dice: number; declined: number; rate: number }[];
      declinesAlikeP: number | null;
      certifiableMargin: number | null;
      refused?: string;
      warnings: string[];
    };
    expect(j.declines.map((d) => d.face)).toEqual(['1', '2', '3', '4', '5', '6']);
    for (const d of j.declines) expect(text.out).toContain(`${d.face}: ${(100 * d.rate).toFixed(1)} % (${d.declined} of ${d.dice})`);
    if (j.certifiableMargin !== null) expect(text.out).toContain(`certify a fair D6 to ±${(100 * j.certifiableMargin).toFixed(1)} % at best`);
    else expect(text.out).toContain(`a session refuses it: ${j.refused as string}`);
    for (const w of j.warnings) expect(text.out).toContain(`warning: ${w}`);
    expect(Array.isArray(j.warnings)).toBe(true);
  });

  it('refuses the X-Wing ways of calibrating for D6s, naming what a D6 check takes', async () => {
    for (const args of [['--camera', 'sim', '--from-labelled', FOLDER], ['--from-labelled', FOLDER, '--reader', 'ring'], []]) {
      const r = await runCli('calibrate', '--die', 'd6', ...args, '-o', join(dir, 'no.json'));
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/D6s are read by their pips \(and by faces learned on your dice, with --learn-faces\): --die d6 takes --from-labelled DIR/);
    }
    expect((await runCli('calibrate', '--die', 'd6', '--camera', 'sim', '--check', CHECK)).err).toMatch(/--check is for X-Wing dice/);
  });

  it("reads a folder with its empty platforms whole frame by whole frame, as a session reads throws: the blob checks' cocked calls count, and none of its cocked dice is read as a face", async () => {
    const framed = join(dir, 'framed');
    expect((await runCli('vision', 'simulate', '--dice', 'd6', '--out', framed, '--seed', '70220', '--frames', '12', '--cocked-rate', '0.3', '--empty-platform')).code).toBe(0);
    const out = join(dir, 'framed.json');
    const r = await runCli('calibrate', '--die', 'd6', '--from-labelled', framed, '-o', out, '--die-size', '72');
    expect(r.err).toBe('');
    const check = parseD6Check(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(check.source).toMatch(/^labelled folder .*framed\/images \(12 images, \d+ dice\), whole frames read against their empty platforms as a session reads them \(die size 72 px\)$/);
    const labelled = readdirSync(join(framed, 'labels')).filter((f) => f !== 'classes.txt').flatMap((f) => readFileSync(join(framed, 'labels', f), 'utf8').trim().split('\n'));
    expect(check.confusion.counts.flat().reduce((a, b) => a + b, 0)).toBe(labelled.length);
    const cockedRow = check.confusion.counts[check.confusion.rows.indexOf('cocked')] as number[];
    const faceColumns = FACES.map((f) => check.confusion.columns.indexOf(f));
    expect(cockedRow.reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
    expect(faceColumns.map((j) => cockedRow[j])).toEqual([0, 0, 0, 0, 0, 0]);
    // The same boxes as crops skip the blob checks: the pip counter alone reads some of those cocked dice as a face.
    const cropsOnly = join(dir, 'framed-crops');
    cpSync(join(framed, 'images'), join(cropsOnly, 'images'), { recursive: true });
    cpSync(join(framed, 'labels'), join(cropsOnly, 'labels'), { recursive: true });
    const crops = join(dir, 'framed-crops.json');
    expect((await runCli('calibrate', '--die', 'd6', '--from-labelled', cropsOnly, '-o', crops)).code).toBe(0);
    const cropCheck = parseD6Check(JSON.parse(readFileSync(crops, 'utf8')), crops);
    expect(cropCheck.source).not.toMatch(/whole frames/);
    const cropCocked = cropCheck.confusion.counts[cropCheck.confusion.rows.indexOf('cocked')] as number[];
    expect(FACES.map((f) => cropCocked[cropCheck.confusion.columns.indexOf(f)] as number).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it("records the die size a check read whole frames with, and a session reading with another refuses it, naming both", async () => {
    const framed = join(dir, 'framed.json');
    const check = parseD6Check(JSON.parse(readFileSync(framed, 'utf8')), framed);
    expect(check.dieSizePx).toBe(72);
    // A check of crops has none: it measured no blob checks.
    expect(parseD6Check(JSON.parse(readFileSync(CHECK, 'utf8')), CHECK).dieSizePx).toBeUndefined();
    const other = await runCli('run', sessionConfig(`calibration: ${framed}\ncamera: { source: sim, dieSizePx: 60 }\n`), '--db', join(dir, 'size.db'));
    expect(other.code).not.toBe(0);
    // Refused before its roll store was made: a failed start leaves nothing behind.
    expect(existsSync(join(dir, 'size.db'))).toBe(false);
    expect(other.err).toMatch(/config key "calibration": the D6 check .*framed\.json read its frames with dice 72 px across, but this session reads with 60 px \(camera\.dieSizePx\): .* make the check again with --die-size 60, or set camera\.dieSizePx to 72/);
    const same = await runCli('run', sessionConfig(`calibration: ${framed}\n`), '--db', join(dir, 'size-ok.db'), '--plain');
    expect(same.err).toBe('');
    expect(same.code).toBe(0);
    expect(same.out).toContain(`Misreads: allowed for up to the 95 % upper bounds measured by D6 check "framed"`);
  });

  it('asks for the die size a session reads with when a folder has its empty platforms, and refuses it, or empty platforms for only some images, otherwise', async () => {
    const framed = join(dir, 'framed');
    const noSize = await runCli('calibrate', '--die', 'd6', '--from-labelled', framed, '-o', join(dir, 'no.json'));
    expect(noSize.code).toBe(1);
    expect(noSize.err).toMatch(/this folder has its empty platforms, so its frames are read as a session reads them: give --die-size PX, the D6 side in pixels your sessions read with \(camera\.dieSizePx\)/);
    const sizeForCrops = await runCli('calibrate', '--die', 'd6', '--from-labelled', FOLDER, '--die-size', '72', '-o', join(dir, 'no.json'));
    expect(sizeForCrops.code).toBe(1);
    expect(sizeForCrops.err).toMatch(/--die-size is for a folder read as whole frames, which needs each image's empty platform/);
    const partial = join(dir, 'partial');
    cpSync(framed, partial, { recursive: true });
    const gone = readdirSync(join(partial, 'empty'))[3] as string;
    rmSync(join(partial, 'empty', gone));
    const r = await runCli('calibrate', '--die', 'd6', '--from-labelled', partial, '--die-size', '72', '-o', join(dir, 'no.json'));
    expect(r.code).toBe(1);
    expect(r.err).toContain(`has no empty platform for 1 of the 12 images (${gone}): give each image its own, named as the image, or remove`);
    // An empty platform of another size than its frame is no reference for it.
    writeFileSync(join(partial, 'empty', gone), await encodePng({ width: 8, height: 6, data: new Uint8Array(8 * 6 * 3) }));
    const small = await runCli('calibrate', '--die', 'd6', '--from-labelled', partial, '--die-size', '72', '-o', join(dir, 'no.json'));
    expect(small.code).toBe(1);
    expect(small.err).toMatch(new RegExp(`the empty platform .*${gone.replace('.', '\\.')} is 8x6 but .* is 1280x720: take the reference with the same camera and resolution`));
    expect(existsSync(join(dir, 'no.json'))).toBe(false);
  });

  it('gives a D6 session misread bounds from the check, stated in its summary and its report alike', async () => {
    const db = join(dir, 'with-check.db');
    const r = await runCli('run', sessionConfig(`calibration: ${CHECK}\n`), '--db', db, '--plain');
    expect(r.code).toBe(0);
    const check = parseD6Check(JSON.parse(readFileSync(CHECK, 'utf8')));
    const statement = d6CheckMisreadAssumption(check, FACES).statement;
    expect(statement).toMatch(/^misreads allowed for up to the 95 % upper bounds measured by D6 check "check"/);
    // The summary says it after "Misreads:", the report as stored with the verdicts.
    const said = statement.replace(/^misreads /, '');
    expect(r.out).toContain(`Misreads: ${said}.`);
    const report = await runCli('report', '1', '--db', db, '--out', join(dir, 'report'));
    expect(report.out).toContain(said);
    // The rig the session ran on is recorded with the check, as an X-Wing rig is with its profile.
    const store = RollStore.open(db, { mustExist: true });
    try {
      expect(store.getRig(store.getSession(1)?.rigId as number)?.calibrationHash).toBe(check.hash);
    } finally {
      store.close();
    }
    // `plan` allows for the same misreads, by face as a D6 session counts.
    const plan = await runCli('plan', '--die', 'd6', '--level', 'face', '--calibration', CHECK, '--delta', '0.05');
    expect(plan.out).toContain(`Misreads ${said}.`);
    expect((await runCli('plan', '--die', 'd6', '--calibration', CHECK)).err).toContain('a D6 session counts the faces of a d6 die: plan with --level face.');
    // Without a check, a D6 session says that nothing measured them and how to measure them.
    const bare = await runCli('run', sessionConfig(''), '--db', join(dir, 'bare.db'), '--plain');
    expect(bare.out).toContain('Misreads: assumed 0: no D6 check measured them (give one as calibration: dicerig calibrate --die d6 --camera DEVICE --die-size PX -o CHECK.json: throws on the rig, named a group at a time; or --from-labelled DIR for dice labelled already; --learn-faces also reads a face shown with a logo).');
  });

  // The chi-square p from SciPy: chi2_contingency([[0,60],[2,58],[0,61],[0,59],[0,62],[40,20]], correction=False).pvalue
  // -> 4.364990851174535e-44 (statistic 213.145, 5 df).
  it("says each face's declines, and warns when the reader declines a face so often that verdicts would wait on a person's labels", () => {
    const counts = [
      [60, 0, 0, 0, 0, 0, 0, 0],
      [0, 58, 0, 0, 0, 0, 2, 0],
      [0, 0, 61, 0, 0, 0, 0, 0],
      [0, 0, 0, 59, 0, 0, 0, 0],
      [0, 0, 0, 0, 62, 0, 0, 0],
      [0, 0, 0, 0, 0, 20, 40, 0],
      [0, 0, 0, 0, 0, 0, 0, 5],
    ];
    const check = sealD6Check({ format: D6_CHECK_FORMAT, version: D6_CHECK_VERSION, name: 'logo', createdAt: '2026-12-04T00:00:00.000Z', reader: 'd6-pips/1', face: 'top', source: 'test', images: 80, confusion: { rows: [...FACES, 'cocked'], columns: [...FACES, 'declined', 'cocked'], counts } });
    const text = formatD6CheckSummary(check, 'logo.json');
    expect(text).toContain('  declined (a session keeps each unresolved): 1: 0.0 % (0 of 60); 2: 3.3 % (2 of 60); 3: 0.0 % (0 of 61); 4: 0.0 % (0 of 59); 5: 0.0 % (0 of 62); 6: 66.7 % (40 of 60); alike across faces? chi-square p = 4.36e-44\n');
    expect(text).toContain('  warning: the pip reader declines 67 % of the 6s on your dice. A session keeps each as an unresolved roll');
    // Under a fifth declined, no warning.
    const fewer = sealD6Check({ ...check, confusion: { ...check.confusion, counts: counts.map((r, i) => (i === 5 ? [0, 0, 0, 0, 0, 49, 11, 0] : r)) } });
    expect(formatD6CheckSummary(fewer, 'f.json')).not.toContain('warning');
  });

  it('says when a check is too thin to bound a face, and a session refuses it before rolling', async () => {
    const few = join(dir, 'few');
    expect((await runCli('vision', 'simulate', '--dice', 'd6', '--out', few, '--seed', '70210', '--frames', '2')).code).toBe(0);
    const thin = join(dir, 'thin.json');
    const r = await runCli('calibrate', '--die', 'd6', '--from-labelled', few, '-o', thin);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/verdicts with it: none \(a session refuses it: .* bounds its misread rate only at [\d.]+ %; calibrate with more dice.*\); make the check with more dice of that face \(more throws, or more labelled dice\)/);
    const run = await runCli('run', sessionConfig(`calibration: ${thin}\n`), '--db', join(dir, 'thin.db'));
    expect(run.code).not.toBe(0);
    expect(run.err).toMatch(/config key "calibration": D6 check "thin" .* bounds its misread rate only at/);
  });

  it('refuses a check of dice seen from the other side, an X-Wing profile for D6s and a D6 check for X-Wing dice', async () => {
    const below = join(dir, 'below.json');
    expect((await runCli('calibrate', '--die', 'd6', '--from-labelled', FOLDER, '--face', 'bottom', '-o', below)).code).toBe(0);
    const seenFromAbove = await runCli('run', sessionConfig(`calibration: ${below}\n`), '--db', join(dir, 'x1.db'));
    expect(seenFromAbove.code).not.toBe(0);
    expect(seenFromAbove.err).toMatch(/config key "calibration": the D6 check .*below\.json was made on dice seen from below \(--face bottom\), but this session's camera sees the top face/);
    const profile = await runCli('run', sessionConfig(`calibration: ${fileURLToPath(new URL('../../calibration/default-red.json', import.meta.url))}\n`), '--db', join(dir, 'x2.db'));
    expect(profile.err).toMatch(/default-red\.json: not a D6 check \(format "dicerig-calibration"\): D6-faced dice take the file/);
    const xwing = await runCli('run', sessionConfig(`calibration: ${CHECK}\n`, '  - { label: red-A, type: red }\n'), '--db', join(dir, 'x3.db'));
    expect(xwing.err).toMatch(/this is a D6 check \(it bounds the misreads of D6-faced dice\), not an X-Wing calibration profile/);
  });

  it('points calibrate --check of a D6 check to the command that measures its reader on new dice', async () => {
    const r = await runCli('calibrate', '--check', CHECK, '--images', FOLDER);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${CHECK}: this is a D6 check, which --check does not re-validate: measure its reader on new labelled dice with dicerig vision eval --die d6 --calibration ${CHECK} --images DIR`);
    expect(r.err).not.toMatch(/calibrate --die red\|green\|xwing/);
  });
});
