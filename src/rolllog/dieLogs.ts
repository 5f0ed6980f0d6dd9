import { InputError } from '../errors.js';
import type { DieLog } from './types.js';

/** Collects tokens per die label while a file is read, remembering where each token first appeared. */
export class DieLogCollector {
  private readonly byLabel = new Map<string, DieLog>();
  private last: DieLog | undefined;

  constructor(private readonly file: string) {}

  add(label: string, level: 'face' | 'symbol', token: string, line: number, typeId: string | undefined): void {
    // Logs are usually grouped by die: checking the previous die first skips the map lookup.
    let log = this.last !== undefined && this.last.label === label ? this.last : this.byLabel.get(label);
    if (log === undefined) {
      log = { label, level, tokens: [], firstSeen: new Map(), files: new Set([this.file]) };
      if (typeId !== undefined) log.typeId = typeId;
      this.byLabel.set(label, log);
    } else {
      if (log.level !== level) {
        throw new InputError(`die "${label}" has a ${level} here but a ${log.level} on earlier rows; give every row the same kind of outcome`, { file: this.file, line });
      }
      if (typeId !== undefined && log.typeId !== typeId) {
        if (log.typeId === undefined) log.typeId = typeId;
        else throw new InputError(`die "${label}" is type "${typeId}" here but "${log.typeId}" on earlier rows`, { file: this.file, line });
      }
    }
    this.last = log;
    if (!log.firstSeen.has(token)) log.firstSeen.set(token, { file: this.file, line });
    log.tokens.push(token);
  }

  dice(): DieLog[] {
    return [...this.byLabel.values()];
  }
}
