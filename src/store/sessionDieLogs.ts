import type { DieLog } from '../rolllog/types.js';
import type { DieRollSeries } from './records.js';

/**
 * A session's counted rolls as the roll-log columns the analysis reads
 * (`resolveDieRolls` then `analyzeDice`), so a stored session is analysed by the
 * same code as a log file. A die is at face level when every roll has its face
 * id, else at symbol level. Positions name the session and throw (`line` is the
 * throw index) so a bad token is traceable.
 * `unresolved`: the session's rolls the reader left unresolved and nobody labelled (`RollStore.unresolvedRolls`); each
 * is kept in its place among its die's read rolls (`DieLog.unresolvedAt`), as an export's `unresolved` rows are, so an
 * analysis can replay them where they happened.
 */
export function sessionDieLogs(series: readonly DieRollSeries[], source: string, unresolved: readonly { readonly dieId: number; readonly throwIndex: number }[] = []): DieLog[] {
  return series.map((s) => {
    const mine = unresolved.filter((u) => u.dieId === s.die.id).map((u) => u.throwIndex);
    const level = s.faces.every((f) => f !== null) ? 'face' : 'symbol';
    const tokens = level === 'face' ? (s.faces as string[]) : s.symbols;
    const dictionary: string[] = [];
    const codeOf = new Map<string, number>();
    const firstSeen = new Map<string, { file: string; line: number }>();
    const codes = tokens.map((token, i) => {
      let code = codeOf.get(token);
      if (code === undefined) {
        code = dictionary.push(token) - 1;
        codeOf.set(token, code);
        firstSeen.set(token, { file: source, line: s.throwIndices[i] as number });
      }
      return code;
    });
    const places = mine.length > 0 ? { unresolvedAt: mine.sort((a, b) => a - b).map((t) => readBefore(s.throwIndices, t)) } : {};
    return { label: s.die.label, typeId: s.die.typeId, level, dictionary, codes, firstSeen, files: new Set([source]), ...places };
  });
}

/** How many of the (ascending) throw indices are below `throwIndex`. */
function readBefore(throwIndices: readonly number[], throwIndex: number): number {
  let lo = 0;
  let hi = throwIndices.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((throwIndices[mid] as number) < throwIndex) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
