import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The password file PostgreSQL's own tools read (libpq's rules, "The Password
 * File" in the PostgreSQL manual): PGPASSFILE, else ~/.pgpass; lines
 * `host:port:database:user:password`, `*` matching anything in the first four
 * fields, `\` escaping `:` and `\`, `#` starting a comment; the first line that
 * matches wins. A file others may read is ignored, as libpq ignores it. Read
 * here rather than by pg, whose own reading is deprecated and warns on every
 * command that uses it.
 */
export interface PasswordTarget {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

export interface PasswordFileLookup {
  /** The file looked in (named in messages as the user would write it). */
  readonly file: string;
  readonly password?: string;
  /** Why the file was not read, when it exists but cannot be used. */
  readonly ignored?: string;
}

/** libpq's default socket folders (Debian's, and the upstream default): a connection through one is looked up as `localhost`. */
const DEFAULT_SOCKET_DIRS = new Set(['/var/run/postgresql', '/run/postgresql', '/tmp']);

/** The fields of a line, escapes undone (`*` alone, unescaped, is the wildcard); the password ends at an unescaped `:`. */
function fields(line: string): { value: string; wildcard: boolean }[] {
  const out = [{ value: '', raw: '' }];
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    const last = out[out.length - 1] as { value: string; raw: string };
    if (c === '\\' && i + 1 < line.length) {
      last.raw += c + (line[i + 1] as string);
      last.value += line[++i];
    } else if (c === ':') out.push({ value: '', raw: '' });
    else {
      last.raw += c;
      last.value += c;
    }
  }
  return out.map((f) => ({ value: f.value, wildcard: f.raw === '*' }));
}

/** The password file's entry for this connection, if the file exists, may be used, and has one. */
export function passwordFromFile(target: PasswordTarget, env: NodeJS.ProcessEnv = process.env): PasswordFileLookup {
  const file = env.PGPASSFILE !== undefined && env.PGPASSFILE !== '' ? env.PGPASSFILE : join(env.HOME ?? homedir(), '.pgpass');
  let text: string;
  try {
    const s = statSync(file);
    if (!s.isFile()) return { file, ignored: 'that is not a plain file' };
    // libpq: group or world access makes the file unusable (a password others can read is no secret).
    if ((s.mode & 0o077) !== 0) return { file, ignored: 'that file is ignored while others can read it, as libpq ignores it: chmod 600 it' };
    text = readFileSync(file, 'utf8');
  } catch {
    return { file };
  }
  const host = target.host.startsWith('/') && DEFAULT_SOCKET_DIRS.has(target.host.replace(/\/+$/, '')) ? 'localhost' : target.host;
  const wanted = [host, String(target.port), target.database, target.user];
  for (const raw of text.split(/\r?\n/)) {
    if (raw === '' || raw.startsWith('#')) continue;
    const f = fields(raw);
    if (f.length < 5) continue;
    if (wanted.every((w, i) => f[i]?.wildcard === true || f[i]?.value === w)) return { file, password: f[4]?.value as string };
  }
  return { file };
}
