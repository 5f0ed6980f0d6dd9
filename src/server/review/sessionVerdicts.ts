/**
 * A stored session's verdicts, remade from the store after a person labels a
 * declined roll: the session's own dice and stopping rules (its stored
 * config, its roll budget as `--more-rolls` raised it), each die's monitor rebuilt by the session's own `replayStored` (as
 * `--resume` does) under the misread bounds the session stored, then stored
 * with `saveVerdicts` so `report` shows them.
 */
import { configDieTypes, type SessionConfig } from '../../session/config.js';
import { storedSessionConfig } from '../../session/budgetRaise.js';
import { MonitorSet } from '../../session/monitorSet.js';
import { readerFamily } from '../../session/setup.js';
import { sessionLevel } from '../../analysis/testedLevels.js';
import type { SessionDie } from '../../session/sessionDie.js';
import type { SessionVerdicts } from '../../stats/dieVerdict.js';
import type { RigSuspectVerdict } from '../../stats/verdict.js';
import { StoreError } from '../../store/errors.js';
import type { RollStore } from '../../store/rollStore.js';

/**
 * The session's dice as its run counted them (from its stored config): each
 * die's store row, type and read level (face by face for pips, symbol by
 * symbol for X-Wing dice), as `openSession` makes them.
 */
export function storedSessionDice(store: RollStore, sessionId: number): { dice: SessionDie[]; stopping: SessionConfig['stopping'] } {
  const session = store.getSession(sessionId);
  if (session === undefined) throw new StoreError(`There is no session ${sessionId}.`, { session: sessionId });
  const config = storedSessionConfig(store, session);
  const types = configDieTypes(config);
  readerFamily(types); // a stored config no reader reads is refused, as at its run
  // Each die keeps the misread assumption its stored verdict rests on (the calibration's bounds), so a review changes the counts, not the rule.
  const stored = store.storedVerdicts(sessionId)?.verdicts as SessionVerdicts | undefined;
  const dice: SessionDie[] = config.dice.map((d, i) => {
    const record = store.findDie(d.label);
    if (record === undefined) throw new StoreError(`Session ${sessionId} names die "${d.label}", which the store does not hold.`, { session: sessionId });
    const misreads = stored?.dice.find((v) => v.label === d.label)?.misreads;
    return { channel: i, record, type: types[i] as SessionDie['type'], level: sessionLevel(types[i] as SessionDie['type']), ...(misreads !== undefined ? { misreads } : {}) };
  });
  return { dice, stopping: config.stopping };
}

/** The session's verdicts from its stored rolls and reviews (a RIG_SUSPECT session stays one). */
export function recomputeVerdicts(store: RollStore, sessionId: number): SessionVerdicts {
  const { dice, stopping } = storedSessionDice(store, sessionId);
  const monitors = new MonitorSet(dice, { alpha: stopping.alpha, delta: stopping.delta, budgetRolls: stopping.budgetRolls });
  monitors.replayStored(store, sessionId);
  return monitors.verdicts(storedRigSuspect(store, sessionId));
}

/** The rig verdict the session stored, if its rig checks failed (a review does not rerun them). */
function storedRigSuspect(store: RollStore, sessionId: number): RigSuspectVerdict | null {
  const stored = store.storedVerdicts(sessionId)?.verdicts as SessionVerdicts | undefined;
  const v = stored?.dice[0]?.verdict;
  return v?.kind === 'RIG_SUSPECT' ? v : null;
}

/** Remakes the session's verdicts and stores them (at `at`, ms since the epoch). */
export function updateStoredVerdicts(store: RollStore, sessionId: number, at: number): SessionVerdicts {
  const verdicts = recomputeVerdicts(store, sessionId);
  store.saveVerdicts(sessionId, at, verdicts);
  return verdicts;
}
