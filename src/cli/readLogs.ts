import { readFileSync, realpathSync, statSync } from 'node:fs';
import { InputError } from '../core/errors.js';
import { parseRollLog, type SymbolLayout } from '../rolllog/parseRollLog.js';
import type { ParsedLog } from '../rolllog/types.js';
import { fileReadProblem } from '../core/fileReadProblem.js';
import { notUtf8, utf8Text } from '../core/utf8Text.js';

/**
 * Reads and parses roll-log files; a missing or unreadable file is an InputError naming it. `rollDetails`: keep each
 * roll's throw, channel, confidence and classifier too (`ParseOptions.rollDetails`: what `import` stores).
 */
export function readLogs(files: readonly string[], layouts: readonly SymbolLayout[], typeId?: string, rollDetails = false): ParsedLog[] {
  if (files.length === 0) throw new InputError('no roll-log files given');
  // One file given twice (a shell pattern and its name, say) would count its rolls twice.
  const seen = new Map<string, string>();
  for (const file of files) {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      continue; // reported below, as it is read
    }
    const first = seen.get(real);
    if (first !== undefined) throw new InputError(`is given twice${first === file ? '' : ` (also as ${first})`}: each file's rolls count once, so give it once`, { file });
    seen.set(real, file);
  }
  return files.map((file) => {
    let text: string;
    try {
      if (statSync(file).isDirectory()) throw new InputError('is a folder; give the roll-log files inside it', { file });
      const decoded = utf8Text(readFileSync(file));
      if (!decoded.ok) throw new InputError(notUtf8('roll log', decoded.line), { file });
      text = decoded.text;
    } catch (e) {
      if (e instanceof InputError) throw e;
      const why = fileReadProblem(e, 'no such file');
      throw new InputError(`cannot read the roll log: ${why}`, { file }, { cause: e });
    }
    return parseRollLog(text, { file, layouts, ...(typeId !== undefined ? { typeId } : {}), ...(rollDetails ? { rollDetails } : {}) });
  });
}
