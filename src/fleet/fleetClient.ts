import type pg from 'pg';
import { FleetLoginError } from './errors.js';
import { passwordFromFile } from './pgpass.js';

/**
 * The client class of every fleet connection pool, for two things pg 8 does not do itself:
 *
 * - A connection that fails while logging in (the server asks for a password the client cannot give) keeps its
 *   socket open (node-postgres issue #2907), and the pool drops such a client without ending it: the process then
 *   cannot exit until the server's authentication_timeout (a minute) closes the socket. It is ended here.
 * - A password neither in the URL nor in PGPASSWORD is looked up in ~/.pgpass here (libpq's rules), only when the
 *   server asks for one, rather than by pg, whose own reading is deprecated and warns on every command; none there
 *   is a FleetLoginError naming the user and server, not pg's "client password must be a string".
 */
export function fleetClientClass(where: string, lib: typeof pg): typeof pg.Client {
  const passwordOf = (p: { host: string; port: number; database: string; user: string }): string => {
    const found = passwordFromFile(p);
    if (found.password !== undefined) return found.password;
    throw new FleetLoginError(
      `The fleet store ${where} asks for a password, and there is no password for user ${p.user} at ${p.host}:${p.port}: put it in the URL, PGPASSWORD or ${found.file}${found.ignored !== undefined ? `; ${found.ignored}` : ''}.`,
      { url: where, user: p.user, server: `${p.host}:${p.port}` },
    );
  };
  return class FleetClient extends lib.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // pg has already taken the URL's password, else PGPASSWORD; a function is what pg calls when the server asks.
      if (typeof this.password !== 'string' || this.password === '') (this as { password: unknown }).password = passwordOf;
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      const endSocket = (): void => void this.end().catch(() => undefined);
      if (callback === undefined) {
        return super.connect().catch((e: unknown) => {
          endSocket();
          throw e;
        });
      }
      super.connect((err: Error | null) => {
        if (err) endSocket();
        callback(err as Error);
      });
    }
  };
}
