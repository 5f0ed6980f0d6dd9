import { editedImportWords } from '../store/importedEdits.js';
import type { FleetSessionInfo } from './fleetReader.js';

/**
 * A running fleet session from which no throw has arrived for a while. The
 * fleet cannot see the rig host's process (a local store can, and says
 * "running?"), only when its throws came: a run throws every few seconds and
 * `run --fleet` copies each as it lands, so ten quiet minutes mean its host or
 * its link to the fleet is most likely gone.
 */
export const QUIET_MS = 10 * 60_000;

const quietFor = (ms: number): string => {
  const min = Math.floor(ms / 60_000);
  if (min < 120) return `${min} min`;
  const hours = Math.floor(min / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
};

const minute = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The session's state as a person should read it at `now`: "running? (no throw arrived for 25 min)" for a quiet
 * running session; "taken over (...)" for a running campaign session whose batch another host or store took over,
 * quiet or not (it will never count, whatever its host does); "finished, a copy (...)" for an import of an export of
 * another fleet session (`copies.ts`); else its state. An import of an edited export says so after it.
 */
export function fleetStateText(s: Pick<FleetSessionInfo, 'state' | 'lastThrowAt' | 'syncedAt' | 'takenOver' | 'originHost' | 'copyOf' | 'edited'>, now: number): string {
  const state = stateWords(s, now);
  // An import of an edited export is the user's own rolls, not a session's evidence: said wherever it is listed.
  const edited = editedImportWords(s.edited ?? []);
  return edited === undefined ? state : `${state}; ${edited}`;
}

function stateWords(s: Pick<FleetSessionInfo, 'state' | 'lastThrowAt' | 'syncedAt' | 'takenOver' | 'originHost' | 'copyOf'>, now: number): string {
  // A copy's rolls are another session's: said first, whatever its state, since every reader leaves it out.
  if (s.copyOf !== null) return `${s.state}, a copy: its rolls count once, as fleet session ${s.copyOf.of}'s`;
  if (s.state !== 'running') return s.state;
  const t = s.takenOver;
  if (t !== null) {
    const by = `host ${t.host}${t.host === s.originHost && t.store !== null ? ` with the store ${t.store}` : ''}`;
    return `taken over (batch ${t.batch} is rolled by ${by} since ${minute(t.since)}: this session's rolls no longer count)`;
  }
  const quiet = now - (s.lastThrowAt ?? s.syncedAt);
  return quiet < QUIET_MS ? s.state : `running? (no throw arrived for ${quietFor(quiet)})`;
}
