import { InputError } from '../core/errors.js';

/** A source of rolls by its name (`session 3 (demo)`, a file's path) and whether its rolls are simulated. */
export interface SourceKind {
  readonly name: string;
  readonly simulated: boolean;
}

/**
 * Simulated and real rolls never mix where a stored session is among them: refused, naming the simulated sources
 * and the real ones. Files among themselves may mix (each says what it is, and the analysis says which are
 * simulated), but a session beside a file of the other kind is refused as two sessions are; a simulated session
 * beside a simulated file (its own export, say) is not, and is left to the double-count check.
 */
export function refuseSimulatedMix(sessions: readonly SourceKind[], files: readonly SourceKind[]): void {
  if (sessions.length === 0) return;
  const all = [...sessions, ...files];
  const simulated = all.filter((s) => s.simulated);
  const real = all.filter((s) => !s.simulated);
  // A file of the other kind than the sessions, or sessions of both kinds, is a mix.
  const sessionsKind = sessions.some((s) => s.simulated) ? (sessions.every((s) => s.simulated) ? 'simulated' : 'mixed') : 'real';
  const clash = sessionsKind === 'mixed' || (sessionsKind === 'simulated' ? real.length > 0 : simulated.length > 0);
  if (!clash) return;
  const names = (xs: readonly SourceKind[]): string => xs.map((s) => s.name).join(', ');
  throw new InputError(`${names(simulated)} ${simulated.length === 1 ? 'is' : 'are'} simulated and cannot be pooled with ${names(real)}: simulated rolls never mix with real ones`);
}
