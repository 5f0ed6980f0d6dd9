import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { defaultDatabasePath } from '../../src/store/databasePath.js';

describe('defaultDatabasePath', () => {
  it('uses $XDG_DATA_HOME/dicerig/dicerig.db when it is set', () => {
    expect(defaultDatabasePath({ XDG_DATA_HOME: '/data', HOME: '/home/ann' }, 'linux')).toBe('/data/dicerig/dicerig.db');
  });

  it('falls back to ~/.local/share/dicerig/dicerig.db, ignoring an empty or relative XDG_DATA_HOME as the XDG spec says', () => {
    expect(defaultDatabasePath({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.local/share/dicerig/dicerig.db');
    expect(defaultDatabasePath({ HOME: '/home/ann', XDG_DATA_HOME: '' }, 'linux')).toBe('/home/ann/.local/share/dicerig/dicerig.db');
    expect(defaultDatabasePath({ HOME: '/home/ann', XDG_DATA_HOME: 'data' }, 'freebsd')).toBe('/home/ann/.local/share/dicerig/dicerig.db');
  });

  it('follows the platform convention on macOS and Windows', () => {
    expect(defaultDatabasePath({ HOME: '/Users/ann' }, 'darwin')).toBe('/Users/ann/Library/Application Support/dicerig/dicerig.db');
    expect(defaultDatabasePath({ HOME: '/Users/ann', XDG_DATA_HOME: '/x' }, 'darwin')).toBe('/x/dicerig/dicerig.db');
    expect(defaultDatabasePath({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'win32')).toBe('C:\\Users\\ann\\AppData\\Local\\dicerig\\dicerig.db');
    expect(defaultDatabasePath({ USERPROFILE: 'C:\\Users\\ann' }, 'win32')).toBe('C:\\Users\\ann\\AppData\\Local\\dicerig\\dicerig.db');
  });

  it('asks for --db when the environment names no home', () => {
    expect(() => defaultDatabasePath({}, 'linux')).toThrow(ConfigError);
    expect(() => defaultDatabasePath({}, 'linux')).toThrow('config key "db": no default location: neither XDG_DATA_HOME nor HOME is set; pass --db PATH');
  });
});
