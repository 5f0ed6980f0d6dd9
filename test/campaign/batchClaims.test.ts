/**
 * One batch, one roller, on a real PostgreSQL server with rig hosts as processes of their own: a batch is rolled by
 * the host and local store that took it, and only the session it bound counts for it. Another host run with the same
 * rig id, the same host started with another local store, and a local store that ran a campaign of the same name in
 * another fleet database are each refused or kept apart, never counted twice.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { cli, cliHere, localCampaignFacts, reportFacts, sorted, writeBox } from './support/campaignCli.js';
import { rigHostStoppedAt, slowRig } from './support/rigHost.js';

let server: ScratchPostgres;
let dir: string;

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = mkdtempSync(join(tmpdir(), 'dicerig-batch-claims-'));
}, 120_000);

afterAll(async () => {
  await server?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Report {
  sessions: { batchId: number; sessionName: string; throwCount: number; headHash: string | null; rig: string; originHost: string | null; state: string | null }[];
  rolls: { batchId: number; label: string; symbol: string; count: number }[];
  unresolvedRolls: { batchId: number; label: string; count: number }[];
  legs: { label: string; rig: string; rolls: number; kind: string; sentence: string }[];
}

async function report(url: string, name: string): Promise<Report> {
  const r = await cliHere(['campaign', 'report', name, '--db', url, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

/** Each die's counted rolls in the report, all batches together. */
function rollsPerDie(r: Report): Map<string, number> {
  const out = new Map<string, number>();
  for (const x of r.rolls) out.set(x.label, (out.get(x.label) ?? 0) + x.count);
  return out;
}

async function fleetSessions(url: string): Promise<{ name: string; originHost: string; campaign: string | null; state: string }[]> {
  const r = await cliHere(['sessions', '--db', url, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { name: string; originHost: string; campaign: string | null; state: string }[];
}

describe('a second rig host run with the same rig id', () => {
  it('is refused while the first holds the batch, told which host holds it and since when, and with --take-over rolls it afresh: only its session counts', async () => {
    const url = await server.createDatabase('same_rig');
    const box = writeBox(dir, ['D1', 'D2']);
    expect((await cliHere(['campaign', 'create', 'dup', '--dice', box, '--rigs', '1', '--channels', '2', '--rolls', '30', '--db', url])).code).toBe(0);
    const dbX = join(dir, 'hostX.db');
    const dbY = join(dir, 'hostY.db');

    // hostX takes the batch and is stopped (Ctrl-C) part-way: the batch stays open, held by hostX.
    const x = await rigHostStoppedAt(['campaign', 'run', 'dup', '--rig', '1', '--fleet', url, '--db', dbX, '--host', 'hostX', '--config', slowRig(dir)], dbX, 3, ['SIGINT']);
    expect(x.code, x.stderr).toBe(130);
    // Ctrl-C's summary suggests running the rig host's command again, which resumes the batch.
    expect(x.stdout).toContain(`Resume:  dicerig campaign run dup --rig 1 --fleet '${url}' --db ${dbX} --config ${join(dir, 'slow-rig.yaml')} --host hostX\n`);
    // The stopped session's verdicts are as of its stop, not the leg's: pending.
    for (const leg of (await report(url, 'dup')).legs) {
      expect(leg.kind).toBe('PENDING');
      expect(leg.sentence).toMatch(/^the session was stopped after \d+ throws; its leg is not done: `dicerig campaign run` on its rig's host resumes it \(when it last ended it said: /);
    }

    const y = await cli(['campaign', 'run', 'dup', '--rig', '1', '--fleet', url, '--db', dbY, '--host', 'hostY', '--json']);
    expect(y.code).toBe(1);
    expect(y.stderr).toMatch(
      new RegExp(`^dicerig: Batch \\d+ of campaign dup \\(rig 1: D1, D2\\) is held by host hostX with the local store ${dbX}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; its session has \\d+ throws in the fleet store, the last copied at \\d{4}-[\\d:.T-]+Z\\. Rolling it here too would roll those dice twice`),
    );
    expect(y.stderr).toMatch(/if hostX or its store is gone for good, add --take-over to abandon it and roll the batch afresh in .*hostY\.db: the \d+ throws of its session no longer count for the batch\.\n$/);
    expect(existsSync(dbY)).toBe(false);

    const taken = await cli(['campaign', 'run', 'dup', '--rig', '1', '--fleet', url, '--db', dbY, '--host', 'hostY', '--take-over', '--json']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toMatch(/Rig 1: batch \d+ was held by host hostX with the local store .*hostX\.db since [\d:.TZ-]+; as --take-over asked, this run takes it over, and the \d+ throws of its session no longer count for the batch\./);

    // hostX's session is still in the fleet store, but the batch counts hostY's alone: each die's leg once, within its budget.
    const named = (await fleetSessions(url)).filter((s) => s.name.startsWith('campaign dup rig 1 batch'));
    expect(named.map((s) => s.originHost).sort()).toEqual(['hostX', 'hostY']);
    const r = await report(url, 'dup');
    expect(r.sessions.map((s) => [s.originHost, s.state])).toEqual([['hostY', 'finished']]);
    expect(sorted(reportFacts(r).rolls)).toEqual(sorted(localCampaignFacts(dbY).rolls));
    for (const [, n] of rollsPerDie(r)) expect(n).toBeLessThanOrEqual(30);
    expect(r.legs.map((l) => l.label).sort()).toEqual(['D1', 'D2']);
    const status = await cliHere(['campaign', 'status', 'dup', '--db', url]);
    expect(status.stdout).toMatch(new RegExp(`rig 1 +2 +0 +0 +${r.sessions[0]!.throwCount} +-`));
  }, 240_000);
});

describe('a rig host started again with another local store', () => {
  it("is refused and told the store that holds the batch's session; run with that store it resumes the session, and the batch counts it once", async () => {
    const url = await server.createDatabase('moved_store');
    const box = writeBox(dir, ['M1', 'M2']);
    expect((await cliHere(['campaign', 'create', 'moved', '--dice', box, '--rigs', '1', '--rolls', '15', '--db', url])).code).toBe(0);
    const first = join(dir, 'kA.db');
    const second = join(dir, 'kA2.db');

    // Two Ctrl-Cs: the run quits at once, and says what it kept and how to go on.
    const quit = await rigHostStoppedAt(['campaign', 'run', 'moved', '--rig', '1', '--fleet', url, '--db', first, '--host', 'hostK', '--config', slowRig(dir), '--json'], first, 3, ['SIGINT', 'SIGINT']);
    expect(quit.code).toBe(130);
    expect(quit.stderr).toMatch(
      new RegExp(`Quitting at once: the \\d+ throws stored so far are kept in ${first} \\(session 1\\); the throw under way is not counted\\. Throws not yet copied to the fleet store are copied by the next run \\(or dicerig sync\\)\\. Resume: dicerig campaign run moved --rig 1 --fleet '.*' --db ${first} --config .* --host hostK\\n`),
    );

    const elsewhere = await cli(['campaign', 'run', 'moved', '--rig', '1', '--fleet', url, '--db', second, '--host', 'hostK', '--json']);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(new RegExp(`^dicerig: Batch \\d+ of campaign moved \\(rig 1: M1, M2\\) is held by this host \\(hostK\\) with the local store ${first}, since [\\d:.TZ-]+; `));
    expect(elsewhere.stderr).toContain(`This run's local store ${second} does not hold that session, and starting the batch again here would count its dice twice. To go on with it, run again with --db ${first}; if that store is lost, add --take-over`);
    expect(existsSync(second)).toBe(false);

    const resumed = await cli(['campaign', 'run', 'moved', '--rig', '1', '--fleet', url, '--db', first, '--host', 'hostK', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/left open by an earlier run: resuming its session \(\d+ throws so far\)/);
    const r = await report(url, 'moved');
    expect(r.sessions).toHaveLength(1);
    expect(sorted(reportFacts(r).sessions)).toEqual(sorted(localCampaignFacts(first).sessions));
    expect(sorted(reportFacts(r).rolls)).toEqual(sorted(localCampaignFacts(first).rolls));
    for (const [, n] of rollsPerDie(r)) expect(n).toBeLessThanOrEqual(15);
  }, 240_000);
});

describe('a local store that ran a campaign of the same name against another fleet database', () => {
  it("rolls the new campaign's dice in sessions of their own: none of its old sessions closes a batch or is counted, or joins the new campaign", async () => {
    const first = await server.createDatabase('first_fleet');
    const second = await server.createDatabase('second_fleet');
    const same = join(dir, 'same.db');
    expect((await cliHere(['campaign', 'create', 'box1', '--dice', writeBox(dir, ['A1', 'A2']), '--rigs', '1', '--channels', '1', '--rolls', '20', '--db', first])).code).toBe(0);
    expect((await cli(['campaign', 'run', 'box1', '--rig', '1', '--fleet', first, '--db', same, '--batches', '1', '--json'])).code).toBe(0);
    // The old campaign's second batch is left running in the store (its host was killed).
    const killed = await rigHostStoppedAt(['campaign', 'run', 'box1', '--rig', '1', '--fleet', first, '--db', same, '--config', slowRig(dir), '--json'], same, 2, ['SIGKILL']);
    expect(killed.signal).toBe('SIGKILL');

    expect((await cliHere(['campaign', 'create', 'box1', '--dice', writeBox(dir, ['C1', 'C2']), '--rigs', '1', '--channels', '1', '--rolls', '20', '--db', second])).code).toBe(0);
    const run = await cli(['campaign', 'run', 'box1', '--rig', '1', '--fleet', second, '--db', same, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/already holds a session named "campaign box1 rig 1 batch \d+" of another campaign box1 .*; this batch's session is "campaign box1 rig 1 batch \d+ \[[0-9a-f]{8}\]"/);

    const r = await report(second, 'box1');
    expect(r.legs.map((l) => l.label).sort()).toEqual(['C1', 'C2']);
    expect([...rollsPerDie(r).keys()].sort()).toEqual(['C1', 'C2']);
    for (const s of r.sessions) expect(s.throwCount).toBeGreaterThan(0);
    // What the report counts is what the new sessions rolled, no more.
    const names = new Set(r.sessions.map((s) => s.sessionName));
    const local = localCampaignFacts(same);
    expect(sorted(reportFacts(r).rolls)).toEqual(sorted(new Map([...local.rolls].filter(([k]) => names.has(k.split('|')[0] as string)))));
    // The old sessions were copied with the store, but belong to no campaign of this fleet store.
    const copied = await fleetSessions(second);
    expect(copied.filter((s) => s.campaign === 'box1').map((s) => s.name).sort()).toEqual([...names].sort());
    expect(copied.filter((s) => s.campaign === null && s.state === 'running')).toHaveLength(1);
  }, 240_000);
});
