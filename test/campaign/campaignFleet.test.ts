/**
 * Campaigns on a real PostgreSQL server (a scratch cluster on a unix socket)
 * with rig hosts as separate processes, each with its own local SQLite store.
 * The fleet store's campaign report is compared with the local stores it came
 * from: every session's throw count and chain head, every counted roll.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { runKillableChild, type KillAfter } from '../support/killableChild.js';
import { openStoreForReading } from '../../src/store/openStore.js';
import { RollStore } from '../../src/store/rollStore.js';
import { cli, cliHere, localCampaignFacts, reportFacts, sorted, unionOf, writeBox } from './support/campaignCli.js';
import { DICERIG } from '../support/builtCli.js';
import { startCliServer, stopCliServer } from '../e2e/support/cliServer.js';

let server: ScratchPostgres;
let dir: string;

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = mkdtempSync(join(tmpdir(), 'dicerig-campaign-'));
}, 120_000);

afterAll(async () => {
  await server?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const DICE = ['A1', 'A2', 'A3', 'A4', 'A5', 'A6'];

type ReportJson = Record<string, unknown> & Parameters<typeof reportFacts>[0];

async function reportJson(url: string, name: string): Promise<ReportJson> {
  const j = await cliHere(['campaign', 'report', name, '--db', url, '--json']);
  expect(j.stderr).not.toMatch(/Error|dicerig:/);
  expect(j.code).toBe(0);
  return JSON.parse(j.stdout) as ReportJson;
}

/** The campaign report as JSON and as text (each analyses the campaign afresh: a test that reads only the JSON asks only for it). */
async function report(url: string, name: string): Promise<{ json: ReportJson; text: string }> {
  const json = await reportJson(url, name);
  const t = await cliHere(['campaign', 'report', name, '--db', url]);
  expect(t.code).toBe(0);
  return { json, text: t.stdout };
}

interface LegJson {
  label: string;
  rig: string;
  state: string;
}

async function legs(url: string, name: string): Promise<LegJson[]> {
  const s = await cliHere(['campaign', 'status', name, '--db', url, '--json']);
  expect(s.code).toBe(0);
  return (JSON.parse(s.stdout) as { legs: LegJson[] }).legs;
}

describe('a campaign on three rigs', () => {
  it('runs three rig processes into one PostgreSQL store; the report equals the union of the three local stores, throw for throw', async () => {
    const url = await server.createDatabase('three_rigs');
    const box = writeBox(dir, DICE);
    // 6 rolls a leg: what is compared is every throw and roll, the same claim at any budget; more rolls only roll more of them.
    const created = await cliHere(['campaign', 'create', 'box1', '--dice', box, '--rigs', '3', '--channels', '2', '--rolls', '6', '--db', url]);
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(/^Campaign box1: 6 dice on 3 rigs \(1, 2, 3\), 2 at a time, each die on 2 rigs, up to 6 rolls a die a rig: 12 legs/);

    const dbs = ['1', '2', '3'].map((rig) => join(dir, `rig${rig}.db`));
    // Rigs 1 and 2 as `dicerig campaign run`, rig 3 as `dicerig run --campaign` (the same loop); rigs 1 and 3 name their host.
    const ends = await Promise.all([
      cli(['campaign', 'run', 'box1', '--rig', '1', '--fleet', url, '--db', dbs[0] as string, '--seed', '10', '--poll', '200', '--json', '--host', 'bench-1']),
      cli(['campaign', 'run', 'box1', '--rig', '2', '--fleet', url, '--db', dbs[1] as string, '--seed', '11', '--poll', '200', '--json']),
      cli(['run', '--campaign', 'box1', '--rig', '3', '--fleet', url, '--db', dbs[2] as string, '--poll', '200', '--json', '--host', 'bench-3']),
    ]);
    for (const end of ends) {
      expect(end.stderr).toMatch(/nothing left to roll in campaign box1/);
      expect(end.code).toBe(0);
    }

    const all = await legs(url, 'box1');
    expect(all.map((l) => l.state)).toEqual(new Array(12).fill('done'));
    // Each session is recorded under the host its rig named, by the sync during the session as by the one after it.
    const listed = await cliHere(['sessions', '--db', url, '--json']);
    const hosts = (JSON.parse(listed.stdout) as { originHost: string; name: string }[]).map((s) => `${s.name.replace(/ batch \d+$/, '')}@${s.originHost}`);
    expect(new Set(hosts)).toEqual(new Set(['campaign box1 rig 1@bench-1', `campaign box1 rig 2@${hostname()}`, 'campaign box1 rig 3@bench-3']));
    for (const die of DICE) expect(new Set(all.filter((l) => l.label === die).map((l) => l.rig)).size).toBe(2);

    const { json, text } = await report(url, 'box1');
    const fleet = reportFacts(json);
    const local = unionOf(dbs.map(localCampaignFacts));
    expect(local.sessions.size).toBeGreaterThanOrEqual(6);
    expect(sorted(fleet.sessions)).toEqual(sorted(local.sessions));
    expect(sorted(fleet.rolls)).toEqual(sorted(local.rolls));
    // The rolls the readers left unresolved, which the analysis must allow for, are the local review queues' too.
    expect(sorted(fleet.unresolved)).toEqual(sorted(local.unresolved));
    // Each die was rolled on the two rigs the plan gave it, its full leg on each (sessions stop at the budget or when every die is decided).
    expect(text).toMatch(/Rig effects/);
    expect(text).toMatch(/A1\s+rig \d/);
  }, 600_000);
});

describe('a rig process killed with SIGKILL and started again', () => {
  it('loses nothing and counts nothing twice: the fleet holds exactly what the local stores hold', async () => {
    const url = await server.createDatabase('killed_rig');
    const box = writeBox(dir, ['K1', 'K2', 'K3', 'K4']);
    // 30 rolls a leg: the kill comes at the 10th throw of rig 1's first session, leaving 20 throws to resume (the
    // resumed session must stop at its budget, not at 30 more); more rolls would only roll more of the same throws.
    const budget = 30;
    expect((await cliHere(['campaign', 'create', 'kill', '--dice', box, '--rigs', '2', '--channels', '2', '--rolls', String(budget), '--db', url])).code).toBe(0);
    const db1 = join(dir, 'kill-rig1.db');
    const db2 = join(dir, 'kill-rig2.db');

    // Rig 1 is killed once its first session has stored some throws (read from its local store while it runs).
    let kill: KillAfter | undefined;
    let throwsAtKill = 0;
    const watch = setInterval(() => {
      if (!existsSync(db1) || kill === undefined) return;
      try {
        const opened = openStoreForReading(db1);
        try {
          const s = opened.store.sessions()[0];
          if (s !== undefined && s.throwCount >= 10 && throwsAtKill === 0) {
            throwsAtKill = s.throwCount;
            kill(0);
          }
        } finally {
          opened.close();
        }
      } catch {
        // the store is being created: look again
      }
    }, 50);
    const killed = await runKillableChild(DICERIG, ['campaign', 'run', 'kill', '--rig', '1', '--fleet', url, '--db', db1, '--seed', '3', '--poll', '200', '--json'], () => undefined, (k) => (kill = k));
    clearInterval(watch);
    expect(killed.signal).toBe('SIGKILL');
    expect(throwsAtKill).toBeGreaterThanOrEqual(10);

    const status = await cliHere(['campaign', 'status', 'kill', '--db', url]);
    expect(status.stdout).toMatch(/rig 1 .* K\d K\d/); // the killed rig still holds its dice

    const [again, other] = await Promise.all([
      cli(['campaign', 'run', 'kill', '--rig', '1', '--fleet', url, '--db', db1, '--seed', '3', '--poll', '200', '--json']),
      cli(['campaign', 'run', 'kill', '--rig', '2', '--fleet', url, '--db', db2, '--seed', '4', '--poll', '200', '--json']),
    ]);
    expect(again.stderr).toMatch(/left open by an earlier run: resuming its session/);
    expect(again.code).toBe(0);
    expect(other.code).toBe(0);

    const fleet = reportFacts(await reportJson(url, 'kill'));
    const local = unionOf([localCampaignFacts(db1), localCampaignFacts(db2)]);
    expect(sorted(fleet.sessions)).toEqual(sorted(local.sessions));
    expect(sorted(fleet.rolls)).toEqual(sorted(local.rolls));
    expect(sorted(fleet.unresolved)).toEqual(sorted(local.unresolved));
    // The killed session was resumed, not started again: one session per batch, each leg's budget counted once.
    const perDie = new Map<string, number>();
    for (const [key, n] of local.rolls) {
      const [session, label] = key.split('|') as [string, string];
      perDie.set(`${session}|${label}`, (perDie.get(`${session}|${label}`) ?? 0) + n);
    }
    for (const [, n] of perDie) expect(n).toBeLessThanOrEqual(budget);
    expect((await legs(url, 'kill')).every((l) => l.state === 'done')).toBe(true);
  }, 600_000);
});

/**
 * A campaign of the six dice on three simulated rigs, rig 2 run with `rig2` (a simulation knob), each rig a process of
 * its own with a fresh seed (named on failure); alpha 0.001 (see the rig-effect test in campaignReaders.test.ts for why).
 */
async function threeRigs(name: string, database: string, rig2: readonly string[]): Promise<{ url: string; dbs: string[]; base: number }> {
  const url = await server.createDatabase(database);
  const box = writeBox(dir, DICE);
  expect((await cliHere(['campaign', 'create', name, '--dice', box, '--rigs', '3', '--channels', '3', '--rolls', '120', '--alpha', '0.001', '--db', url])).code).toBe(0);
  const dbs = ['1', '2', '3'].map((rig) => join(dir, `${name}-rig${rig}.db`));
  const base = randomInt(1, 1_000_000);
  const ends = await Promise.all(
    ['1', '2', '3'].map((rig, i) => cli(['campaign', 'run', name, '--rig', rig, '--fleet', url, '--db', dbs[i] as string, '--seed', String(base + i), '--poll', '200', '--json', ...(rig === '2' ? rig2 : [])])),
  );
  for (const end of ends) expect(end.code, `seeds ${base}..${base + 2}: ${end.stderr}`).toBe(0);
  return { url, dbs, base };
}

describe("a rig whose camera cannot read a face", () => {
  it("is not set aside as biased: its read rolls lack the face, but its unresolved rolls could hold it, so the report names it unclear and its sessions' verdicts stand", async () => {
    const { url, dbs, base } = await threeRigs('blind', 'unreadable_rig', ['--sim-unreadable-face', '6']);

    const { json, text } = await report(url, 'blind');
    const analysis = json as unknown as {
      biasedRigs: unknown[];
      unclearRigs: { rig: string; reason: string }[];
      unresolvedRolls: { rig: string; count: number }[];
      legs: { rig: string; kind: string }[];
    };
    const seen = `rig seeds ${base}, ${base + 1}, ${base + 2}; unclear ${JSON.stringify(analysis.unclearRigs)}; legs ${JSON.stringify(analysis.legs)}`;
    // Rig 2 read no 6 at all: each was left unresolved, and the fleet holds them as the local stores do.
    const onRig2 = analysis.unresolvedRolls.filter((u) => u.rig === '2').reduce((a, u) => a + u.count, 0);
    expect(onRig2, seen).toBeGreaterThan(50);
    const local = unionOf(dbs.map(localCampaignFacts));
    expect([...local.rolls].filter(([k]) => /rig 2 batch/.test(k) && k.endsWith('|6')), seen).toEqual([]);
    expect(sorted(reportFacts(json).unresolved)).toEqual(sorted(local.unresolved));
    expect(analysis.biasedRigs, seen).toEqual([]);
    expect(analysis.unclearRigs.map((u) => u.rig), seen).toEqual(['2']);
    for (const leg of analysis.legs) expect(leg.kind, seen).not.toBe('RIG_SUSPECT');
    expect(text).toMatch(/No rig is found biased yet: an unclear rig below waits for its unresolved rolls to be reviewed\./);
    expect(text).toMatch(/RIG UNCLEAR: rig 2 differs from the other rigs on its read rolls \(p = [^)]*\), but the \d+ unresolved rolls of the dice compared could be the faces that make the difference: review them \(dicerig review\) before setting it aside \(d6 dice\)\. Its sessions' verdicts stand\./);
    // The report names the sessions holding them, on each rig's host.
    const rig2Sessions = (json as unknown as { sessions: { rig: string; sessionName: string }[] }).sessions.filter((x) => x.rig === '2').map((x) => x.sessionName);
    expect(rig2Sessions.length).toBeGreaterThan(0);
    expect(text).toContain("To settle them, label the unresolved rolls on each rig's host, then sync");
    for (const name of rig2Sessions) expect(text).toMatch(new RegExp(`rig 2 \\(on \\S+\\): dicerig review '${name}' --db \\S+rig2\\.db +\\(\\d+ unresolved\\)`));

    // Rig 2's host labels its crops on the review page (nearly all are 6s: its reader reads the other faces, declining
    // about 1 in 100) and syncs: the fleet then holds the labels, nothing is unresolved there, and the rigs agree.
    for (const name of rig2Sessions) {
      const review = await startCliServer(['review', name, '--db', dbs[1] as string, '--port', '0', '--reviewer', 'Ada'], { timeoutMs: 30_000 });
      try {
        const todo = (await (await fetch(`${review.url}/api/review`)).json()) as { rolls: { rollId: number }[] };
        const labelled = await fetch(`${review.url}/api/labels`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rolls: todo.rolls.map((r) => r.rollId), face: '6' }) });
        expect(labelled.status).toBe(200);
      } finally {
        await stopCliServer(review.proc);
      }
    }
    const synced = await cli(['sync', '--db', dbs[1] as string, '--to', url, '--quiet']);
    expect(synced.code, synced.stderr).toBe(0);
    const after = (await reportJson(url, 'blind')) as unknown as typeof analysis;
    expect(after.unresolvedRolls.filter((u) => u.rig === '2'), seen).toEqual([]);
    expect(after.biasedRigs, seen).toEqual([]);
    expect(after.unclearRigs, seen).toEqual([]);

    // Two of those labels corrected on rig 2's host (one to a 5, one to "cannot tell") and synced: the fleet counts
    // the answers that stand, as the local store does (the label a correction superseded counts nowhere).
    const rig2 = RollStore.open(dbs[1] as string);
    try {
      const labels = rig2.sessions().filter((x) => rig2Sessions.includes(x.name ?? '')).flatMap((x) => rig2.reviews(x.id).map((r) => ({ session: x.id, r })));
      expect(labels.length, seen).toBeGreaterThanOrEqual(2);
      labels.slice(0, 2).forEach(({ session, r }, i) => rig2.reviewLog.correct(session, { rollId: r.rollId, faceId: i === 0 ? '5' : null, reviewer: 'Bob', at: r.at + 1, supersedes: r.id }));
    } finally {
      rig2.close();
    }
    const resynced = await cli(['sync', '--db', dbs[1] as string, '--to', url, '--quiet']);
    expect(resynced.code, resynced.stderr).toBe(0);
    const corrected = reportFacts(await reportJson(url, 'blind'));
    const local2 = unionOf(dbs.map(localCampaignFacts));
    expect(sorted(corrected.rolls)).toEqual(sorted(local2.rolls));
    expect(sorted(corrected.unresolved)).toEqual(sorted(local2.unresolved));
    expect([...corrected.unresolved.values()].reduce((a, b) => a + b, 0)).toBe([...after.unresolvedRolls].reduce((a, u) => a + u.count, 0) + 1);
  }, 600_000);
});

describe('a campaign of one die', () => {
  it('is planned in words that count it as one: one die, one roll a rig, one round', async () => {
    const url = await server.createDatabase('one_die');
    const created = await cliHere(['campaign', 'create', 'solo', '--dice', writeBox(dir, ['S1']), '--rigs', '2', '--rolls', '1', '--db', url]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Campaign solo: 1 die on 2 rigs \(1, 2\), 4 at a time, each die on 2 rigs, up to 1 roll a die a rig: 2 legs, about 2 rounds if the rigs keep pace\.\n/);
    const alone = await cliHere(['campaign', 'create', 'alone', '--dice', writeBox(dir, ['S2']), '--rigs', '1', '--rolls', '1', '--db', url]);
    expect(alone.stdout).toMatch(/^Campaign alone: 1 die on 1 rig \(1\), 4 at a time, each die on one rig, up to 1 roll a die a rig: 1 leg, about 1 round if the rigs keep pace\.\n/);
  }, 60_000);
});
