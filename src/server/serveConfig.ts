/**
 * `dicerig serve --config`: a session config (the dice, rig, camera) that may
 * also hold a `server:` section (tokens, port, host, rate limits, the proxies in front). Tokens in
 * the file are overridden by DICERIG_TOKEN and DICERIG_CHAT_TOKEN.
 */
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { MIN_API_TOKEN, MIN_CHAT_TOKEN, TOKEN_SPACE } from './security/auth.js';
import { parseTrustedProxies } from './security/trustedProxies.js';
import { checkSessionConfig, formatKeyPath, readConfigFile, splitServerSection, withPathsFrom, type SessionConfig } from '../session/config.js';
import { withDiceFile } from '../session/diceFile.js';

export const serverSectionSchema = z.strictObject({
  token: z.string().min(MIN_API_TOKEN, `a token needs at least ${MIN_API_TOKEN} characters`).regex(/^\S+$/, `a token ${TOKEN_SPACE}`).optional(),
  chatToken: z.string().min(MIN_CHAT_TOKEN, `a chat token needs at least ${MIN_CHAT_TOKEN} characters`).regex(/^\S+$/, `a chat token ${TOKEN_SPACE}`).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  apiPerMinute: z.number().positive().optional(),
  chatPerMinute: z.number().positive().optional(),
  liveMax: z.number().int('must be a whole number of pages').positive().optional(),
  livePerAddress: z.number().int('must be a whole number of pages').positive().optional(),
  // Checked, and made a list, by parseTrustedProxies below: its messages name the entry that is wrong.
  trustProxy: z.union([z.string(), z.array(z.string())], { message: 'must be the addresses of the proxies: a list, or one string separated by commas' }).optional(),
});

export type ServerSection = Omit<z.infer<typeof serverSectionSchema>, 'trustProxy'> & { readonly trustProxy?: readonly string[] };

export async function loadServeConfig(file: string): Promise<{ session: SessionConfig; server: ServerSection }> {
  // The session config's own reader: its size cap, alias cap and duplicate-key check guard this file too.
  const { value, lineOf } = await readConfigFile(file);
  const { session: rest, server } = splitServerSection(value ?? {});
  const checked = serverSectionSchema.safeParse(server ?? {});
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = ['server', ...(issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p)))];
    const line = lineOf(path);
    // The message never repeats the value: it may be a token.
    throw new ConfigError(formatKeyPath(path), `${issue?.message ?? 'is not valid'}${line !== undefined ? ` (line ${line})` : ''}`, file);
  }
  const { trustProxy, ...section } = checked.data;
  const fail = (problem: string): ConfigError => {
    const line = lineOf(['server', 'trustProxy']);
    return new ConfigError('server.trustProxy', `${problem}${line !== undefined ? ` (line ${line})` : ''}`, file);
  };
  const proxies = trustProxy !== undefined ? { trustProxy: parseTrustedProxies(trustProxy, fail) } : {};
  const dir = dirname(resolve(file));
  const session = withPathsFrom(dir, checkSessionConfig(withDiceFile(rest, dir, file), file, lineOf));
  return { session, server: { ...section, ...proxies } };
}
