import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../core/errors.js';
import { parseRollLog, type SymbolLayout } from '../rolllog/parseRollLog.js';
import type { ParsedLog } from '../rolllog/types.js';

/** Reads and parses roll-log files; a missing or unreadable file is an InputError naming it. */
export function readLogs(files: readonly string[], layouts: readonly SymbolLayout[], typeId?: string): ParsedLog[] {
  if (files.length === 0) throw new InputError('no roll-log files given');
  return files.map((file) => {
    let text: string;
    try {
      if (statSync(file).isDirectory()) throw new InputError('is a folder; give the roll-log files inside it', { file });
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if (e instanceof InputError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
      throw new InputError(`cannot read the roll log: ${why}`, { file }, { cause: e });
    }
    return parseRollLog(text, { file, layouts, ...(typeId !== undefined ? { typeId } : {}) });
  });
}
