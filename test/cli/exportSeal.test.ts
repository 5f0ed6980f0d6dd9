import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';
import { demoStore } from '../support/demoStore.js';
import { sealOf } from '../../src/store/exportSeal.js';

type Die = { label: string; verdict: { kind: string }; decidedBy?: { session: number } };
type Manifest = Record<string, unknown> & { verdicts: { dice: { label: string; kind: string; sentence: string }[] }; seal: { digest: string } };

/*
 * Truth 2: the reader must not be able to bias a verdict, and neither may a file. An export is sealed; a file changed
 * since is not its session's evidence: verify says what changed, analyze and pool judge the changed dice on their
 * rolls, and import refuses it unless told to take it as the user's own rolls.
 */
describe('a sealed export', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-export-seal-'));
  const db = join(dir, 'rolls.db');
  const csv = join(dir, 's1.csv');
  const jsonl = join(dir, 's1.jsonl');
  const lines = (file: string) => readFileSync(file, 'utf8').split('\n');
  /** The throw the export's chain head is of (a cocked die's re-tumbles count as throws). */
  const throwCount = () => (JSON.parse(readFileSync(`${csv}.manifest.json`, 'utf8')) as { session: { throwCount: number } }).session.throwCount;
  const analyze = async (file: string) => {
    const r = await runCli('analyze', file, '--json');
    expect(r.code, r.err).toBe(0);
    return { dice: (JSON.parse(r.out) as { dice: Die[] }).dice, err: r.err };
  };
  /** A copy of the JSON Lines export with its manifest (first line) and rows changed. */
  const edit = (name: string, change: (manifest: Manifest, rows: string[]) => void): string => {
    const [first, ...rows] = lines(jsonl);
    const manifest = JSON.parse(first as string) as Manifest;
    change(manifest, rows);
    const file = join(dir, name);
    writeFileSync(file, [JSON.stringify(manifest), ...rows].join('\n'));
    return file;
  };

  beforeAll(async () => {
    expect((await demoStore(['--budget', '150', '--seed', '3'], db)).code).toBe(0);
    expect((await runCli('export', '1', '--db', db, '--out', csv)).code).toBe(0);
    expect((await runCli('export', '1', '--db', db, '--out', jsonl)).code).toBe(0);
  }, 120_000);

  it('verifies as sealed, in either format with the same digest, and against the store it came from', async () => {
    const r = await runCli('verify', csv);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${csv}: sealed, 600 rows, digest matches`);
    const manifest = JSON.parse(readFileSync(`${csv}.manifest.json`, 'utf8')) as Manifest & { session: { headHash: string } };
    expect(r.out).toContain(`dicerig verify --db STORE --expect ${manifest.session.headHash}`);
    expect((JSON.parse(lines(jsonl)[0] as string) as Manifest).seal.digest).toBe(manifest.seal.digest);
    const against = await runCli('verify', jsonl, '--db', db);
    expect(against.code, against.out).toBe(0);
    expect(against.out).toContain(`${db}: session 1 reaches the export's head (throw ${throwCount()}) and exports the same 600 rows`);
    // Line endings are not content.
    const crlf = join(dir, 'crlf.csv');
    writeFileSync(crlf, readFileSync(csv, 'utf8').replace(/\n/g, '\r\n'));
    writeFileSync(`${crlf}.manifest.json`, readFileSync(`${csv}.manifest.json`));
    expect((await runCli('verify', crlf)).code).toBe(0);
  }, 60_000);

  it("shows a forged verdict nowhere: verify names the die, analyze judges it on its rolls and keeps the others' session verdicts, import refuses it", async () => {
    const forged = edit('forged.jsonl', (m) => {
      const die = m.verdicts.dice[1] as { kind: string; sentence: string };
      die.kind = 'FAIR_WITHIN';
      die.sentence = 'fair within ±0.05 (forged)';
    });
    const label = (JSON.parse(lines(forged)[0] as string) as Manifest).verdicts.dice[1]?.label as string;
    const v = await runCli('verify', forged);
    expect(v.code).toBe(1);
    expect(v.out).toContain(`${forged}: EDITED: 600 rows; not the export of session 1 as sealed:\n  die ${label}: its verdict in the manifest is not the sealed one\n`);
    const a = await analyze(forged);
    expect(a.err).toContain(`dicerig: note: ${forged}: die ${label}: its verdict in the manifest is not the sealed one: judged here on the file's rolls, not by session 1's verdict.\n`);
    expect(a.dice.filter((d) => d.decidedBy?.session === 1).map((d) => d.label).sort()).toEqual(a.dice.map((d) => d.label).filter((l) => l !== label).sort());
    expect(a.dice.find((d) => d.label === label)?.verdict.kind).not.toBe('FAIR_WITHIN');
    const i = await runCli('import', forged, '--db', join(dir, 'forged.db'));
    expect(i.code).not.toBe(0);
    expect(i.err).toContain(`${forged}: die ${label}: its verdict in the manifest is not the sealed one. The file is not session 1's export as sealed`);
    expect(i.err).toContain('--allow-edited');
  }, 60_000);

  it('finds two rolls of a die swapped, naming die and line; pool and analyze judge that die on its rolls alone', async () => {
    let at = 0;
    let label = '';
    const swapped = edit('swapped.jsonl', (_, rows) => {
      // Two rolls of one die with different faces, exchanged: the counts stay the same.
      const first = JSON.parse(rows[0] as string) as { die: string; face: string };
      label = first.die;
      const other = rows.findIndex((r) => (JSON.parse(r) as { die: string; face: string }).die === label && (JSON.parse(r) as { face: string }).face !== first.face);
      const b = JSON.parse(rows[other] as string) as { face: string; symbol: string };
      rows[0] = JSON.stringify({ ...first, face: b.face, symbol: b.symbol });
      rows[other] = JSON.stringify({ ...b, face: first.face, symbol: first.face });
      at = 2; // the first row is the file's second line
    });
    const v = await runCli('verify', swapped);
    expect(v.code).toBe(1);
    expect(v.out).toContain(`die ${label}: its rows differ from the sealed ones from line ${at} on`);
    const a = await analyze(swapped);
    expect(a.err).toContain(`dicerig: note: ${swapped}: die ${label}: its rows differ from the sealed ones from line ${at} on`);
    expect(a.dice.find((d) => d.label === label)?.decidedBy).toBeUndefined();
    expect(a.dice.filter((d) => d.decidedBy?.session === 1)).toHaveLength(3);
    const pool = await runCli('pool', swapped, '--size', '2', '--json');
    expect(pool.code, pool.err).toBe(0);
    expect(pool.err).toContain(`die ${label}: its rows differ from the sealed ones from line ${at} on`);
  }, 60_000);

  it('refuses to import rows turned into reviews, naming file, die and line; --allow-edited stores them as the user\'s own rolls, marked edited, without the verdicts', async () => {
    let label = '';
    const reviewed = edit('reviewed.jsonl', (_, rows) => {
      const r = JSON.parse(rows[4] as string) as Record<string, unknown>;
      label = r['die'] as string;
      rows[4] = JSON.stringify({ ...r, confidence: null, classifier: null, resolution: 'reviewed', reviewer: 'me' });
    });
    const copy = join(dir, 'reviewed.db');
    const refused = await runCli('import', reviewed, '--db', copy);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain(`${reviewed}, line 6: die ${label}: its rows differ from the sealed ones from line 6 on`);
    const allowed = await runCli('import', reviewed, '--db', copy, '--allow-edited');
    expect(allowed.code, allowed.err).toBe(0);
    expect(allowed.err).toContain(`dicerig: note: ${reviewed}: edited since its export (die ${label}: its rows differ from the sealed ones from line 6 on`);
    expect(allowed.out).not.toContain('It keeps the verdicts');
    expect(allowed.out).toContain('Stored as your own rolls, edited since their export');
    const sessions = JSON.parse((await runCli('sessions', '--db', copy, '--json')).out) as { id: number }[];
    expect(sessions).toHaveLength(1);
    const stored = await runCli('analyze', '1', '--db', copy, '--json');
    expect((JSON.parse(stored.out) as { dice: Die[] }).dice.every((d) => d.decidedBy === undefined)).toBe(true);
  }, 60_000);

  it('passes a file whose seal a forger rewrote too, but the store it came from tells', async () => {
    const rewritten = edit('rewritten.jsonl', (m, rows) => {
      const r = JSON.parse(rows[0] as string) as { face: string; symbol: string };
      const face = r.face === '6' ? '5' : '6';
      rows[0] = JSON.stringify({ ...r, face, symbol: face });
      const { seal: _old, ...rest } = m;
      Object.assign(m, { seal: sealOf(rows, rest) });
    });
    expect((await runCli('verify', rewritten)).code).toBe(0);
    const against = await runCli('verify', rewritten, '--db', db);
    expect(against.code).toBe(1);
    expect(against.out).toContain(`${db}: ROWS DIFFER: session 1 reaches the export's head (throw ${throwCount()}), but exported now its rows are not the file's`);
  }, 60_000);

  it('reads an export made before seals as before, saying it is unsealed; one whose seal was stripped is edited', async () => {
    const old = edit('old.jsonl', (m) => {
      delete (m as Partial<Manifest>).seal;
      m['formatVersion'] = 1;
    });
    const v = await runCli('verify', old);
    expect(v.code).toBe(1);
    expect(v.out).toContain(`${old}: NOT SEALED: an export of session 1 made before exports were sealed; its 600 rows cannot be checked on their own.`);
    const a = await analyze(old);
    expect(a.err).toContain(`dicerig: note: ${old}: its export carries no seal (made before exports were sealed), so its rows cannot be checked against its manifest.\n`);
    expect(a.dice.every((d) => d.decidedBy?.session === 1)).toBe(true);
    const i = await runCli('import', old, '--db', join(dir, 'old.db'));
    expect(i.code, i.err).toBe(0);
    expect(i.out).toContain('It keeps the verdicts the exported session made');
    const stripped = edit('stripped.jsonl', (m) => delete (m as Partial<Manifest>).seal);
    expect((await runCli('verify', stripped)).out).toContain('its manifest is of a sealed format, but its seal is gone or unreadable');
    expect((await analyze(stripped)).dice.every((d) => d.decidedBy === undefined)).toBe(true);
  }, 60_000);

  it('says a file without a manifest is no export to check', async () => {
    const bare = join(dir, 'bare.csv');
    writeFileSync(bare, lines(csv).join('\n'));
    const r = await runCli('verify', bare);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(`${bare}: it carries no export manifest`);
  });
});
