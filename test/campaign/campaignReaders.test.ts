/**
 * A campaign whose rig 2 favours the 6, on a real PostgreSQL server: the campaign report finds the rig biased and
 * leaves its rolls out of every die's test; and its finding on the sessions is as every other reader of them shows
 * it: a session on a rig the campaign found biased is RIG_SUSPECT in `analyze` (of the session and of its export),
 * `report` and the fleet dashboard's sessions, as in `campaign report`, and `pool` leaves its rolls out and says so; a
 * session of that rig whose batch was taken over, though no batch counts it, too.
 *
 * Both tests read the one campaign, rolled once in beforeAll (three rig processes, some 1,500 rolls): the first
 * reads only the campaign report; the second, after it, also writes files of its own and the fleet page's caches.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDice } from '../../src/dice/catalogue.js';
import { openFleet } from '../../src/fleet/connect.js';
import { FleetView } from '../../src/server/fleet/fleetView.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { cli, cliHere, writeBox } from './support/campaignCli.js';
import { rigHostStoppedAt, slowRig } from './support/rigHost.js';

let server: ScratchPostgres;
let dir: string;
let url: string;
/** The rig hosts' seeds, drawn afresh each run (see the rig-effect test for why) and named on failure. */
let base: number;

/**
 * Six D6s on three rigs, rig 2 favouring the 6 by 0.35 at alpha 0.001. Rig 2's first host is stopped part-way through
 * its first batch and its batch taken over by the host that rolls the rest: the abandoned session counts for no
 * batch, but it ran on rig 2.
 */
beforeAll(async () => {
  server = await startScratchPostgres();
  dir = mkdtempSync(join(tmpdir(), 'dicerig-campaign-readers-'));
  url = await server.createDatabase('readers');
  const box = writeBox(dir, ['A1', 'A2', 'A3', 'A4', 'A5', 'A6']);
  expect((await cliHere(['campaign', 'create', 'readers', '--dice', box, '--rigs', '3', '--channels', '3', '--rolls', '120', '--alpha', '0.001', '--db', url])).code).toBe(0);
  const hostX = join(dir, 'rig2-hostX.db');
  const stopped = await rigHostStoppedAt(['campaign', 'run', 'readers', '--rig', '2', '--fleet', url, '--db', hostX, '--host', 'hostX', '--config', slowRig(dir)], hostX, 3, ['SIGINT']);
  expect(stopped.code, stopped.stderr).toBe(130);
  base = randomInt(1, 1_000_000);
  const ends = await Promise.all(
    ['1', '2', '3'].map((rig, i) =>
      cli(['campaign', 'run', 'readers', '--rig', rig, '--fleet', url, '--db', join(dir, `rig${rig}.db`), '--seed', String(base + i), '--poll', '200', '--json', ...(rig === '2' ? ['--sim-rig-bias', '6=0.35', '--take-over'] : [])]),
    ),
  );
  for (const end of ends) expect(end.code, `seeds ${base}..${base + 2}: ${end.stderr}`).toBe(0);
}, 600_000);

afterAll(async () => {
  await server?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Report {
  biasedRigs: { rig: string; reason: string }[];
  legs: { rig: string; label: string; kind: string; rolls: number; fleetSession: number | null; sentence: string }[];
  verdicts: { label: string; kind: string; rolls: number; rigs: string[] }[];
}

interface AnalyzedDie {
  label: string;
  verdict: { kind: string; campaign?: { name: string; rig: string; reason: string } };
  sentence: string;
  sessionKind?: string;
}

describe('a rig that favours a face', () => {
  it("is reported as a rig effect, its sessions made RIG_SUSPECT, and its rolls left out of every die's test", async () => {
    // Which dice a session gets depends on how the rigs race for claims. With fixed seeds each rig's rolls come
    // from a small fixed pool of streams (one per batch id and channel), and the race picks which meet on a die:
    // two unusual streams meeting made the fair rigs 1 and 3 disagree (p = 0.004) in about 1 race in 5, a figure
    // of those seeds, not of the analysis. So the seeds are drawn afresh (and named on failure), and each run is
    // a draw of the plan the analysis was simulated for. Power of this plan (rig 2 on 4 of the 6 dice, alpha 0.01),
    // simulated with the pure analysis over 1,000 seeds: at 6=0.12 rig 2 alone was flagged in 752/1000 (a flaky
    // test); at 6=0.25 in 996/1000, and still in 995/1000 when rig 2's sessions stop at half their budget (its dice
    // decided early); another rig flagged in 4/1000. That was this test failing by chance once in ~250 runs (seen
    // in a full run of the suite, seeds 92360..92362: the fair rigs 1 and 3 told apart at p < 0.01 once rig 2 was
    // set aside), as the campaign's alpha allows. So the campaign asks alpha 0.001 and rig 2 favours the six by
    // 0.35: simulated again (findBiasedRigs on two dice on each pair of rigs, 120 rolls a leg, rig 2's legs cut to
    // 120, 60 or 40 rolls, 4,000 seeds each) rig 2 alone was flagged in 3999/4000 at each, a fair rig in 1/4000; at
    // alpha 0.01 and 0.25 a fair rig in 17-22/4000 and rig 2 missed in up to 36/4000.
    // The campaign rolled in beforeAll is this plan: its rig 2's abandoned session counts for no leg.
    const j = await cliHere(['campaign', 'report', 'readers', '--db', url, '--json']);
    expect(j.stderr).not.toMatch(/Error|dicerig:/);
    expect(j.code).toBe(0);
    const t = await cliHere(['campaign', 'report', 'readers', '--db', url]);
    expect(t.code).toBe(0);
    const json = JSON.parse(j.stdout) as Record<string, unknown>;
    const text = t.stdout;
    const analysis = json as unknown as {
      biasedRigs: { rig: string; reason: string }[];
      legs: { rig: string; label: string; kind: string; rolls: number }[];
      types: { dice: { die: string; rolls: number; unfair: boolean }[] }[];
    };
    // On failure, name the seeds and what the analysis saw (the race that shared the dice out is not replayable).
    const seen = `rig seeds ${base}, ${base + 1}, ${base + 2}; flagged ${JSON.stringify(analysis.biasedRigs)}; legs ${JSON.stringify(analysis.legs)}`;
    expect(analysis.biasedRigs.map((b) => b.rig), seen).toEqual(['2']);
    expect(analysis.biasedRigs[0]!.reason).toMatch(/favouring 6/);
    for (const leg of analysis.legs) {
      if (leg.rig === '2') expect(leg.kind).toBe('RIG_SUSPECT');
      else expect(leg.kind).not.toBe('RIG_SUSPECT');
    }
    // What rig 2 shows is the rig, not the die: each die is tested on the fair rigs' rolls alone. (Whether a fair die
    // is then called unfair is a chance of at most alpha for the whole box, so one run cannot assert it: about 1 run in
    // 24 called one, as test/verdict/rigEffects.test.ts's 15 of 300 campaigns lead one to expect. That test measures it.)
    const trusted = new Map<string, number>();
    for (const leg of analysis.legs) if (leg.rig !== '2') trusted.set(leg.label, (trusted.get(leg.label) ?? 0) + leg.rolls);
    expect(analysis.legs.filter((l) => l.rig === '2').reduce((sum, l) => sum + l.rolls, 0), seen).toBeGreaterThan(0);
    expect(analysis.types[0]!.dice.length).toBeGreaterThan(0);
    for (const d of analysis.types[0]!.dice) expect(d.rolls, `${d.die}: ${seen}`).toBe(trusted.get(d.die) ?? 0);
    expect(text).toMatch(/RIG BIASED: rig 2 differs from the other rigs/);
  }, 600_000);
});

describe('a session on a rig its campaign found biased', () => {
  it('is RIG_SUSPECT in analyze (and of its export), report and the fleet page as in campaign report, and pool leaves its rolls out, naming the rig; so is a session of that rig whose batch was taken over', async () => {
    const report = JSON.parse((await cliHere(['campaign', 'report', 'readers', '--db', url, '--json'])).stdout) as Report;
    // Flagged alone in 3999 of 4000 simulated campaigns of this plan (see the rig-effect test above).
    const seen = `rig seeds ${base}, ${base + 1}, ${base + 2}; flagged ${JSON.stringify(report.biasedRigs)}`;
    expect(report.biasedRigs.map((b) => b.rig), seen).toEqual(['2']);
    const suspect = [...new Set(report.legs.filter((l) => l.rig === '2').map((l) => l.fleetSession as number))];
    const trusted = [...new Set(report.legs.filter((l) => l.rig !== '2').map((l) => l.fleetSession as number))];
    expect(suspect.length, seen).toBeGreaterThan(0);
    const one = suspect[0] as number;
    const legSentence = report.legs.find((l) => l.fleetSession === one)!.sentence;

    // analyze: each die of the session is RIG_SUSPECT by the campaign's finding, with its reason and where to read it.
    const analyzed = await cliHere(['analyze', String(one), '--db', url, '--json']);
    expect(analyzed.code, analyzed.stderr).toBe(0);
    expect(analyzed.stderr).toMatch(new RegExp(`fleet session ${one} \\(campaign readers rig 2 batch \\d+\\) ran on rig 2 of campaign readers, which the campaign found biased \\(rig 2 differs from the other rigs`));
    const dice = (JSON.parse(analyzed.stdout) as { dice: AnalyzedDie[] }).dice;
    expect(dice.length).toBeGreaterThan(0);
    for (const d of dice) {
      expect(d.verdict.kind, d.label).toBe('RIG_SUSPECT');
      expect(d.verdict.campaign).toEqual({ name: 'readers', rig: '2', reason: report.biasedRigs[0]!.reason });
      // The campaign report's words for the leg, then where to read the finding.
      expect(d.sentence.startsWith(legSentence)).toBe(true);
      expect(d.sentence).toContain('dicerig campaign report readers');
    }
    const text = (await cliHere(['analyze', String(one), '--db', url])).stdout;
    expect(text).not.toMatch(/^ {2}UNFAIR/m);
    expect(text).toMatch(/rolled only in sessions on a rig their campaign found biased: RIG_SUSPECT by the campaign's finding/);

    // export: the manifest carries the finding, so the file is judged as the fleet judges the session.
    const file = join(dir, `suspect-${one}.jsonl`);
    const exported = await cliHere(['export', String(one), '--db', url, '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(legSentence);
    const fromFile = await cliHere(['analyze', file, '--json']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const fileDice = (JSON.parse(fromFile.stdout) as { dice: AnalyzedDie[] }).dice;
    expect(fileDice.map((d) => [d.label, d.verdict.kind, d.sentence])).toEqual(dice.map((d) => [d.label, 'RIG_SUSPECT', d.sentence]));

    // report: headed by the fleet session asked for, its host's own id beside it; every die RIG_SUSPECT, nothing certified.
    const out = join(dir, 'report');
    const written = await cliHere(['report', String(one), '--db', url, '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(new RegExp(`^Report of fleet session ${one} \\(campaign readers rig 2 batch \\d+\\), session \\d+ of [^:]+:.*rig2\\.db, SIMULATED:`));
    expect(written.stdout).toContain(`Campaign readers's finding on this session: ${dice[0]!.sentence}`);
    // A die's rolls, with its unresolved ones where the reader left one (the rigs' seeds differ run to run).
    for (const d of dice) expect(written.stdout).toMatch(new RegExp(`^ {2}${d.label} +RIG_SUSPECT +\\d+(?: \\(\\d+ unresolved\\))? +-$`, 'm'));
    const json = JSON.parse((await cliHere(['report', String(one), '--db', url, '--out', out, '--json'])).stdout) as { fleetSession: { id: number }; dice: { verdict: string; sentence: string }[] };
    expect(json.fleetSession.id).toBe(one);
    expect(json.dice.map((d) => d.verdict)).toEqual(dice.map(() => 'RIG_SUSPECT'));

    // pool: the biased rig's sessions are left out, named; the rest pooled as the campaign's verdicts pool them.
    const all = [...suspect, ...trusted].map(String);
    const pooled = await cliHere(['pool', ...all, '--db', url, '--size', '2', '--json']);
    expect(pooled.code, pooled.stderr).toBe(0);
    const pool = JSON.parse(pooled.stdout) as { sessions: { id: number }[]; leftOut: { id: number; rig: string; campaign: string }[]; ranking: { label: string; rolls: number }[]; excluded: { label: string; reason: string }[] };
    expect(pool.leftOut.map((l) => l.id).sort()).toEqual([...suspect].sort());
    expect(pool.leftOut.every((l) => l.rig === '2' && l.campaign === 'readers')).toBe(true);
    expect(pool.sessions.map((s) => s.id).sort()).toEqual([...trusted].sort());
    for (const r of pool.ranking) expect(r.rolls, r.label).toBe(report.verdicts.find((v) => v.label === r.label)!.rolls);
    const poolText = (await cliHere(['pool', ...all, '--db', url, '--size', '2'])).stdout;
    expect(poolText).toMatch(new RegExp(`^Left out:\\n {2}fleet session ${suspect[0]} .* ran on rig 2 of campaign readers, which the campaign found biased .*its rolls are left out of the pool\\.$`, 'm'));

    // The abandoned session on rig 2 is no leg, but it ran on the rig found biased: RIG_SUSPECT by the same finding
    // in analyze, and pool leaves it out too.
    const listed = JSON.parse((await cliHere(['sessions', '--db', url, '--json'])).stdout) as { id: number; originHost: string; campaign: string | null }[];
    const abandoned = listed.find((l) => l.originHost === 'hostX')!.id;
    expect(report.legs.some((l) => l.fleetSession === abandoned)).toBe(false);
    const analyzedAbandoned = await cliHere(['analyze', String(abandoned), '--db', url, '--json']);
    expect(analyzedAbandoned.code, analyzedAbandoned.stderr).toBe(0);
    for (const d of (JSON.parse(analyzedAbandoned.stdout) as { dice: AnalyzedDie[] }).dice) {
      expect(d.verdict.kind, d.label).toBe('RIG_SUSPECT');
      expect(d.verdict.campaign).toEqual({ name: 'readers', rig: '2', reason: report.biasedRigs[0]!.reason });
    }
    const withAbandoned = JSON.parse((await cliHere(['pool', String(abandoned), ...trusted.map(String), '--db', url, '--size', '2', '--json'])).stdout) as { leftOut: { id: number }[] };
    expect(withAbandoned.leftOut.map((l) => l.id)).toEqual([abandoned]);

    // The fleet page's sessions: the same verdicts and sentence as analyze and report, and the trusted rigs' own.
    const fleet = await openFleet(url);
    try {
      const view = new FleetView({ fleet, dice: allDice(), pollMs: 0, now: () => Date.now() });
      let state = await view.state();
      // A read makes at most a few sessions' reports: read until every session has its verdicts.
      for (let i = 0; i < 5 && state.sessions.some((s) => s.verdicts === null); i++) state = await view.state();
      const row = state.sessions.find((s) => s.id === one)!;
      expect(row.verdicts?.dice.map((d) => [d.label, d.kind, d.sentence])).toEqual(dice.map((d) => [d.label, 'RIG_SUSPECT', d.sentence]));
      for (const id of trusted) expect(state.sessions.find((s) => s.id === id)!.verdicts?.dice.some((d) => d.sentence.includes('dicerig campaign report'))).toBe(false);
      expect(state.sessions.find((s) => s.id === abandoned)!.verdicts?.dice.every((d) => d.kind === 'RIG_SUSPECT')).toBe(true);
    } finally {
      await fleet.close();
    }
  }, 600_000);
});
