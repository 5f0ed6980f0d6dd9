/**
 * The reverse proxies (Caddy, nginx) a server may stand behind. Behind one, every request comes from the proxy's
 * address, so every limit kept per address (wrong tokens, live pages) would be one bucket for all: one guesser would
 * lock every viewer and the streamer out. Given the proxies' addresses, a request that comes from one of them is
 * counted by the client address the proxy adds to `X-Forwarded-For`; a request from any other address is counted by
 * its own, whatever header it sends (a client cannot name itself another by writing the header). Only addresses and
 * ranges are taken, never "trust everyone", which would let every client choose its own address.
 */
import { isIP } from 'node:net';

/** The names proxy-addr (Fastify's trustProxy) takes for well-known ranges. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** Why one entry is not an address, a range or a named range, or undefined when it is one. */
function problemOf(entry: string): string | undefined {
  if ((NAMED_RANGES as readonly string[]).includes(entry)) return undefined;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return `"${entry.slice(0, 100)}" is not an IP address, a range (ADDRESS/BITS) or one of ${NAMED_RANGES.join(', ')}`;
  if (slash < 0) return undefined;
  const bits = entry.slice(slash + 1);
  const most = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > most) return `"${entry.slice(0, 100)}": the bits after "/" must be a whole number from 0 to ${most}`;
  return undefined;
}

/**
 * The proxies given as a comma-separated list (an option) or a list (a config key): trimmed, each checked.
 * `fail` makes the error naming where the list came from (the option, or the config key and file).
 */
export function parseTrustedProxies(value: string | readonly string[], fail: (problem: string) => Error): string[] {
  const entries = (typeof value === 'string' ? value.split(',') : value).map((e) => e.trim());
  if (entries.length === 0 || entries.some((e) => e === '')) throw fail('give the addresses of the proxies, separated by commas (e.g. 127.0.0.1 or 10.0.0.0/8), with no empty entry');
  for (const entry of entries) {
    const problem = problemOf(entry);
    if (problem !== undefined) throw fail(problem);
  }
  return [...new Set(entries)];
}

/** One line for the start banner, saying how clients are told apart. */
export function proxyLine(proxies: readonly string[]): string {
  return `Behind a proxy (${proxies.join(', ')}): a request from it is counted by the client address it adds to X-Forwarded-For (wrong tokens and live pages are counted per address); any other request by its own address.`;
}
