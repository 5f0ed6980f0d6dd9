import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { loadServeConfig } from '../../src/server/serveConfig.js';
import { tempDir } from '../store/support/fixtures.js';

const SESSION = `dice:
  - { label: R1, type: red }
  - { label: G1, type: green }
rig: { driver: sim }
db: rolls.db
`;

function file(text: string): string {
  const path = join(tempDir('dicerig-serve-config-'), 'session.yaml');
  writeFileSync(path, text);
  return path;
}

describe('the serve config', () => {
  it('is a session config with an optional server section, paths resolved against its folder', async () => {
    const path = file(`${SESSION}server:\n  token: a-long-enough-api-token\n  chatToken: chat-token-123\n  port: 9090\n`);
    const { session, server } = await loadServeConfig(path);
    expect(session.dice.map((d) => d.label)).toEqual(['R1', 'G1']);
    expect(session.db).toBe(join(path, '..', 'rolls.db'));
    expect(server).toEqual({ token: 'a-long-enough-api-token', chatToken: 'chat-token-123', port: 9090 });
    expect((await loadServeConfig(file(SESSION))).server).toEqual({});
  });

  it('names the key and line of a bad server setting without repeating a token', async () => {
    const e = await loadServeConfig(file(`${SESSION}server:\n  token: short-secret\n`)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).message).toMatch(/config key "server\.token": a token needs at least 16 characters \(line 7\)$/);
    expect((e as ConfigError).message).not.toContain('short-secret');
    const spaced = await loadServeConfig(file(`${SESSION}server:\n  token: "secret secret secret"\n`)).catch((x: unknown) => x);
    expect((spaced as ConfigError).message).toMatch(/config key "server\.token": a token cannot contain spaces or other whitespace: .* \(line 7\)$/);
    expect((spaced as ConfigError).message).not.toContain('secret secret');
    const unknown = await loadServeConfig(file(`${SESSION}server:\n  tokn: x\n`)).catch((x: unknown) => x);
    expect((unknown as ConfigError).message).toContain('server');
  });

  it('takes limits on live pages as whole positive numbers, naming the key and line of a bad one', async () => {
    expect((await loadServeConfig(file(`${SESSION}server:\n  liveMax: 40\n  livePerAddress: 5\n`))).server).toEqual({ liveMax: 40, livePerAddress: 5 });
    const zero = await loadServeConfig(file(`${SESSION}server:\n  liveMax: 0\n`)).catch((x: unknown) => x);
    expect(zero).toBeInstanceOf(ConfigError);
    expect((zero as ConfigError).message).toMatch(/config key "server\.liveMax": .* \(line 7\)$/);
    const half = await loadServeConfig(file(`${SESSION}server:\n  livePerAddress: 2.5\n`)).catch((x: unknown) => x);
    expect((half as ConfigError).message).toMatch(/config key "server\.livePerAddress": must be a whole number of pages \(line 7\)$/);
  });

  it('checks the session part as dicerig run does', async () => {
    const e = await loadServeConfig(file('dice: []\nrig: { driver: sim }\n')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).message).toContain('dice');
  });
});
