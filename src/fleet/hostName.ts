import { InputError } from '../core/errors.js';

/**
 * A rig host's name as the fleet store records it (`--host` of sync, run and
 * campaign run). A fleet session is named HOST:ID, so a name that is empty or
 * holds a colon or white space makes a key that names no session (`:1`) or
 * reads as another (`lab:2:1`): refused before anything is written.
 */
export function checkHostName(host: string): string {
  if (host === '') throw new InputError('--host "" names no rig host: give this host\'s name, or leave --host out to use the hostname');
  if (/[:\s]/.test(host)) {
    throw new InputError(`--host ${JSON.stringify(host)} cannot name a rig host: the fleet names a session HOST:ID, so a host name holds no ":" and no spaces (e.g. --host ${JSON.stringify(suggestion(host))})`);
  }
  return host;
}

/** The name with its colons and spaces made hyphens, never starting with one (it would read as an option). */
function suggestion(host: string): string {
  const name = host.replace(/[:\s]+/g, '-').replace(/^-+|-+$/g, '');
  return name === '' ? 'rig-1' : name;
}
