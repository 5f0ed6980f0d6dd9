import { isSimulatedLog } from '../rolllog/simulatedLog.js';
import type { ParsedLog } from '../rolllog/types.js';
import type { FileWithManifest } from './fileManifest.js';
import { storedSessionName } from './storedLogs.js';
import type { StoredSession } from './storedSessions.js';
import type { SourceKind } from './simulatedMix.js';

/** What analyze and pool say of simulated rolls, in these words wherever they say it. */
export const SIMULATED_WORDS = 'SIMULATED rolls: not evidence about real dice';

/** The sources whose rolls are simulated, and whether every source's are. */
export interface SimulatedSources {
  readonly all: boolean;
  /** The simulated ones by name (`session 3 (demo)`, a file's path). */
  readonly sources: readonly string[];
}

/**
 * Which sources hold simulated rolls: a stored session marked simulated, and a file whose export manifest says its
 * session was, or every row of which is marked simulated (an export's rows, without the manifest beside them).
 * Undefined when none does.
 */
export function simulatedSources(sessions: readonly StoredSession[], manifests: readonly FileWithManifest[], logs: readonly ParsedLog[]): SimulatedSources | undefined {
  const fromSessions = sessions.map((s) => ({ name: storedSessionName(s), simulated: s.session.simulated }));
  const all = [...fromSessions, ...fileKinds(manifests, logs)];
  const simulated = all.filter((s) => s.simulated).map((s) => s.name);
  return simulated.length === 0 ? undefined : { all: simulated.length === all.length, sources: simulated };
}

/** Each file, simulated when its export manifest says its session was, or every row of it is marked simulated. */
export function fileKinds(manifests: readonly FileWithManifest[], logs: readonly ParsedLog[]): SourceKind[] {
  const manifestOf = new Map(manifests.map((m) => [m.file, m.manifest]));
  return logs.map((l) => ({ name: l.file, simulated: isSimulatedLog(l, manifestOf.get(l.file)?.session.simulated) }));
}

/** The line that says so: every source simulated, or which of them are. */
export function simulatedLine(s: SimulatedSources): string {
  return s.all ? `${SIMULATED_WORDS}.` : `${SIMULATED_WORDS.replace(':', ` from ${s.sources.join(', ')}:`)}; the other sources' are real.`;
}
