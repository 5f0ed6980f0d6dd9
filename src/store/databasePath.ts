import { posix, win32 } from 'node:path';
import { ConfigError } from '../core/errors.js';

/**
 * Where the roll store lives when `--db` is not given: the user's data
 * directory, per platform convention. Pure: the environment and platform are
 * passed in.
 * - Linux and others: `$XDG_DATA_HOME/dicerig/dicerig.db`, else `~/.local/share/dicerig/dicerig.db`;
 * - macOS: `$XDG_DATA_HOME` when set, else `~/Library/Application Support/dicerig/dicerig.db`;
 * - Windows: `%LOCALAPPDATA%\dicerig\dicerig.db`, else `%USERPROFILE%\AppData\Local\dicerig\dicerig.db`.
 */
export function defaultDatabasePath(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): string {
  const set = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v;
  };
  if (platform === 'win32') {
    const local = set('LOCALAPPDATA') ?? (set('USERPROFILE') !== undefined ? win32.join(set('USERPROFILE') as string, 'AppData', 'Local') : undefined);
    if (local === undefined) throw new ConfigError('db', 'no default location: neither LOCALAPPDATA nor USERPROFILE is set; pass --db PATH');
    return win32.join(local, 'dicerig', 'dicerig.db');
  }
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = set('XDG_DATA_HOME');
  if (xdg !== undefined && posix.isAbsolute(xdg)) return posix.join(xdg, 'dicerig', 'dicerig.db');
  const home = set('HOME');
  if (home === undefined) throw new ConfigError('db', 'no default location: neither XDG_DATA_HOME nor HOME is set; pass --db PATH');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'dicerig', 'dicerig.db');
  return posix.join(home, '.local', 'share', 'dicerig', 'dicerig.db');
}
