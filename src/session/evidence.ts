/**
 * Evidence images: the crop a die was read (or refused) from, written as PNG
 * beside the roll store with its SHA-256, so a rerolled throw can be shown and
 * a stored roll can be checked against its pixels later.
 */
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { encodePng } from '../camera/decode.js';
import { DicerigError } from '../core/errors.js';
import type { RgbImage } from '../core/image.js';
import { makeFolders } from '../core/makeFolders.js';
import type { ThrowOutcome } from './throwOutcome.js';

export interface SavedEvidence {
  /** Path relative to the roll store's folder. */
  readonly path: string;
  /** Hex SHA-256 of the file's bytes. */
  readonly hash: string;
}

export interface EvidenceSink {
  /** Saves one image under a file name unique within the session. */
  save(image: RgbImage, name: string): Promise<SavedEvidence>;
}

/** Tries before a name is given up on: far more than a throw re-read after a crash could need. */
const MAX_SUFFIX = 1000;

/**
 * Writes PNGs into `dir` (created on first use), recording paths relative to `base`. An existing file is never
 * overwritten: another store, or an earlier store of the same name, may point at it with its own hash. The picture
 * then takes the next free name (`t3-c1-2.png`), and the roll records that path.
 */
export function folderEvidence(dir: string, base: string): EvidenceSink {
  let made = false;
  return {
    async save(image, name) {
      if (!made) {
        makeFolders(dir);
        made = true;
      }
      const bytes = await encodePng(image);
      const hash = createHash('sha256').update(bytes).digest('hex');
      for (let n = 1; n <= MAX_SUFFIX; n++) {
        const file = join(dir, n === 1 ? `${name}.png` : `${name}-${n}.png`);
        try {
          await writeFile(file, bytes, { flag: 'wx' });
          return { path: relative(base, file), hash };
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
          // A write cut short (a full disk) leaves a truncated picture no roll points at, that would take its name.
          await rm(file, { force: true }).catch(() => undefined);
          throw e;
        }
      }
      throw new DicerigError(`${MAX_SUFFIX} evidence pictures named ${name} are already in ${dir}: move that folder's old pictures away`, { folder: dir, name });
    },
  };
}

/** The folder of a session's evidence: under the store's own folder in `evidence/`, then the store file's name, so two stores in one folder never share one. */
export function sessionEvidenceFolder(dbPath: string, sessionId: number): { readonly dir: string; readonly base: string } {
  const file = resolve(dbPath);
  return { dir: join(dirname(file), 'evidence', basename(file), `session-${sessionId}`), base: dirname(file) };
}

/**
 * Keeps a throw's crops as `mode` asks: every roll's (`all`), and each problem's with a crop (`rerolls` and `all`);
 * nothing without a sink or with `none`. Keyed by the roll or problem they belong to; `index` is the throw's.
 */
export async function saveThrowEvidence(sink: EvidenceSink | undefined, mode: 'rerolls' | 'all' | 'none', outcome: ThrowOutcome, index: number): Promise<Map<object, SavedEvidence>> {
  const saved = new Map<object, SavedEvidence>();
  if (sink === undefined || mode === 'none') return saved;
  const wanted = mode === 'all' ? outcome.rolls.map((r) => ({ key: r as object, crop: r.crop, name: `t${index}-c${r.die.channel}` })) : [];
  outcome.problems.forEach((p, i) => {
    if (p.crop !== undefined) wanted.push({ key: p, crop: p.crop, name: `t${index}-${p.channel !== undefined ? `c${p.channel}` : `x${i}`}-${p.kind}` });
  });
  for (const w of wanted) saved.set(w.key, await sink.save(w.crop, w.name));
  return saved;
}
