/**
 * A stored session's verdicts, remade from the store after a person labels a
 * declined roll: the session's own dice and stopping rules (its stored
 * config), each die's monitor rebuilt by the session's own `replayStored` (as
 * `--resume` does), then stored with `saveVerdicts` so `report` shows them.
 */
import { getDieType } from '../../dice/catalogue.js';
import { checkSessionConfig } from '../../session/config.js';
import { MonitorSet } from '../../session/monitorSet.js';
import { readerFamily } from '../../session/setup.js';
import type { SessionDie } from '../../session/sessionDie.js';
import type { SessionVerdicts } from '../../stats/dieVerdict.js';
import type { RigSuspectVerdict } from '../../stats/verdict.js';
import { StoreError } from '../../store/errors.js';
import type { RollStore } from '../../store/rollStore.js';

/** The session's verdicts from its stored rolls and reviews (a RIG_SUSPECT session stays one). */
export function recomputeVerdicts(store: RollStore, sessionId: number): SessionVerdicts {
  const session = store.getSession(sessionId);
  if (session === undefined) throw new StoreError(`There is no session ${sessionId}.`, { session: sessionId });
  const config = checkSessionConfig(JSON.parse(session.configJson) as unknown, `session ${sessionId} (stored config)`);
  const types = config.dice.map((d) => getDieType(d.type));
  const level = readerFamily(types) === 'pips' ? 'face' : 'symbol';
  const dice: SessionDie[] = config.dice.map((d, i) => {
    const record = store.findDie(d.label);
    if (record === undefined) throw new StoreError(`Session ${sessionId} names die "${d.label}", which the store does not hold.`, { session: sessionId });
    return { channel: i, record, type: types[i] as SessionDie['type'], level };
  });
  const monitors = new MonitorSet(dice, { alpha: config.stopping.alpha, delta: config.stopping.delta, budgetRolls: config.stopping.budgetRolls });
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
