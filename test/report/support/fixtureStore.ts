import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { greenDefenseDie, redAttackDie } from '../../../src/dice/catalogue.js';
import type { DieType } from '../../../src/dice/types.js';
import type { RigIdentity } from '../../../src/rig/driver.js';
import type { DieRecord, RollInput } from '../../../src/store/records.js';
import { RollStore } from '../../../src/store/rollStore.js';
import { cumulativeOf, drawIndex, seededRandom } from '../../../src/stats/random.js';

export const START = 1_700_000_000_000;
/** A throw every 2.5 s. */
export const THROW_MS = 2_500;

export const rig: RigIdentity = { driver: 'simulated', firmware: '0.1.0', protocol: 1, rigId: 'sim-4ch', configHash: 'cfg-1', tumbler: 'servo' };

/** Red with face hit-1 half as likely again (0.1875 instead of 0.125), the others scaled down to match. */
export const LOADED_FACE = 'hit-1';
const loadedRed = redAttackDie.faces.map((f) => (f.id === LOADED_FACE ? 0.1875 : (1 - 0.1875) / 7));

interface FixtureDie {
  readonly label: string;
  readonly type: DieType;
  readonly odds: readonly number[];
}

/** R1 fair red, R2 loaded red, G1 and G2 fair green. */
export const FIXTURE_DICE: readonly FixtureDie[] = [
  { label: 'R1', type: redAttackDie, odds: redAttackDie.faceProbabilities },
  { label: 'R2', type: redAttackDie, odds: loadedRed },
  { label: 'G1', type: greenDefenseDie, odds: greenDefenseDie.faceProbabilities },
  { label: 'G2', type: greenDefenseDie, odds: greenDefenseDie.faceProbabilities },
];

export interface FixtureSession {
  readonly id: number;
  readonly name: string;
  /** Throws recorded: ok, void (a fault; half the dice read), rerolled (one die cocked). */
  readonly ok: number;
  readonly void: number;
  readonly rerolled: number;
  readonly startedAt: number;
  readonly endedAt: number;
}

export interface Fixture {
  readonly db: string;
  readonly dir: string;
  readonly sessions: {
    /** The main session: simulated, 1,500 ok throws of the four dice. */
    readonly main: FixtureSession;
    /** The same dice rolled for real, 600 throws (a second session of the same physical dice). */
    readonly real: FixtureSession;
    /** A session whose throws were all void: nothing counts. */
    readonly voidOnly: FixtureSession;
  };
}

/**
 * A roll store holding the report fixtures, written as the runner writes:
 * throw by throw, with events for every void and rerolled throw. Seeded, so
 * the counts are the same on every run.
 */
export function fixtureStore(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-report-'));
  const db = join(dir, 'rolls.db');
  const store = RollStore.open(db, { synchronous: 'normal' });
  try {
    const rigRow = store.registerRig(rig, 'cal-1');
    const dice = FIXTURE_DICE.map((d) => store.registerDie({ label: d.label, typeId: d.type.id }));
    const main = recordSession(store, { name: 'demo-loaded', simulated: true, rigId: rigRow.id, dice, throws: 1500, seed: 7, start: START });
    const real = recordSession(store, { name: 'real-600', simulated: false, rigId: rigRow.id, dice, throws: 600, seed: 11, start: START + 86_400_000 });
    const voidOnly = recordSession(store, { name: 'all-void', simulated: false, rigId: rigRow.id, dice, throws: 0, seed: 3, start: START + 2 * 86_400_000, voidThrows: 4 });
    return { db, dir, sessions: { main, real, voidOnly } };
  } finally {
    store.close();
  }
}

interface SessionPlan {
  readonly name: string;
  readonly simulated: boolean;
  readonly rigId: number;
  readonly dice: readonly DieRecord[];
  /** Ok throws to record. */
  readonly throws: number;
  readonly seed: number;
  readonly start: number;
  /** Void throws (default: every 50th throw slot). */
  readonly voidThrows?: number;
}

function recordSession(store: RollStore, plan: SessionPlan): FixtureSession {
  const random = seededRandom(plan.seed);
  const cumulative = FIXTURE_DICE.map((d) => cumulativeOf(d.odds));
  const session = store.createSession({ name: plan.name, config: { channels: 4 }, simulated: plan.simulated, rigId: plan.rigId, startedAt: plan.start });
  let t = plan.start;
  let ok = 0;
  let voids = 0;
  let rerolled = 0;
  const roll = (): RollInput[] =>
    plan.dice.map((die, i) => {
      const spec = FIXTURE_DICE[i] as FixtureDie;
      const face = spec.type.faces[drawIndex(cumulative[i] as number[], random)] as { id: string; symbol: string };
      return { dieId: die.id, channel: i, faceId: face.id, symbol: face.symbol, confidence: 0.98, classifierVersion: 'd8-v1' };
    });
  store.atomically(() => {
    let slot = 0;
    const wantVoid = plan.voidThrows ?? Math.floor(plan.throws / 50);
    while (ok < plan.throws || voids < wantVoid) {
      slot++;
      const startedAt = t;
      t += THROW_MS;
      if (voids < wantVoid && (ok >= plan.throws || slot % 50 === 0)) {
        const index = store.recordThrow(session.id, { startedAt, endedAt: t - 100, status: 'void', why: 'serial link lost', rolls: roll().slice(0, 2) }).index;
        store.recordEvent(session.id, { at: t - 100, kind: 'fault', throwIndex: index, detail: { message: 'serial link lost' } });
        store.recordEvent(session.id, { at: t - 50, kind: 'reconnect', throwIndex: index });
        voids++;
      } else if (slot % 37 === 0) {
        const rolls = roll().map((r, i) => (i === 1 ? { ...r, cocked: true, symbol: undefined, faceId: undefined } : r));
        const index = store.recordThrow(session.id, { startedAt, endedAt: t - 100, status: 'rerolled', why: 'R2 cocked', rolls }).index;
        store.recordEvent(session.id, { at: t - 100, kind: 'cocked', throwIndex: index, dieId: plan.dice[1]?.id });
        rerolled++;
      } else {
        store.recordThrow(session.id, { startedAt, endedAt: t - 100, status: 'ok', rolls: roll() });
        ok++;
      }
    }
  });
  store.endSession(session.id, t, 'finished');
  return { id: session.id, name: plan.name, ok, void: voids, rerolled, startedAt: plan.start, endedAt: t };
}
