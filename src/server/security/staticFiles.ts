/**
 * The pages' files, served only from the app's own folder: the folder is
 * listed once at start, and a request is answered only when its path is one of
 * those names exactly. Nothing a request says is ever joined onto a path, so
 * `..`, encoded slashes or symlinks cannot reach another file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export interface StaticFile {
  readonly type: string;
  readonly body: Buffer;
}

/**
 * The folder holding the pages: src/server/public, found from this file, from its compiled twin in dist/src/server
 * and from the bundled CLI in dist/cli (so the nearest src/server/public above this file).
 */
export function publicDir(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const candidates = [join(here, '..', 'public')];
  for (let i = 0, dir = dirname(here); i < 5; i++, dir = dirname(dir)) candidates.push(join(dir, 'src', 'server', 'public'));
  for (const candidate of candidates) {
    try {
      if (statSync(candidate).isDirectory()) return candidate;
    } catch {
      // try the next
    }
  }
  throw new Error(`the dashboard's files are missing (looked for src/server/public above ${here})`);
}

/** Reads every servable file of `dir` (not its subfolders) into memory, by URL path. */
export function loadStaticFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    const full = join(dir, name);
    if (type === undefined || !statSync(full).isFile()) continue;
    files.set(`/${name}`, { type, body: readFileSync(full) });
  }
  return files;
}

/** Serves the listed files; `routes` maps page paths (`/`, `/overlay`) to file names. */
export function staticFiles(app: FastifyInstance, files: Map<string, StaticFile>, routes: Readonly<Record<string, string>>): void {
  const send = (path: string) => async (_req: unknown, reply: FastifyReply) => {
    const f = files.get(path);
    if (f === undefined) return reply.code(404).type('text/plain').send('not found');
    return reply.type(f.type).header('Cache-Control', 'no-cache').send(f.body);
  };
  for (const [route, name] of Object.entries(routes)) app.get(route, send(`/${name}`));
  for (const path of files.keys()) app.get(`/static${path}`, send(path));
}
