import type { DieLog } from '../rolllog/types.js';
import type { DieRollSeries } from './records.js';

/**
 * A session's counted rolls as the roll-log columns the analysis reads
 * (`resolveDieRolls` then `analyzeDice`), so a stored session is analysed by the
 * same code as a log file. A die is at face level when every roll has its face
 * id, else at symbol level. Positions name the session and throw (`line` is the
 * throw index) so a bad token is traceable.
 */
export function sessionDieLogs(series: readonly DieRollSeries[], source: string): DieLog[] {
  return series.map((s) => {
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
    return { label: s.die.label, typeId: s.die.typeId, level, dictionary, codes, firstSeen, files: new Set([source]) };
  });
}
