import { describe, expect, it } from 'vitest';
import { analyzeDiceStream } from '../../../src/analysis/analyze.js';
import { resolveDieRolls } from '../../../src/analysis/dieRolls.js';
import { builtInDice } from '../../../src/dice/catalogue.js';
import { mergeLogs } from '../../../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';

describe('analysing a file of many distinct dice', () => {
  it('groups 20,000 dice of two types for the homogeneity test, every die once', () => {
    const rows = ['die,type,face'];
    for (let d = 0; d < 20_000; d++) for (let r = 0; r < 3; r++) rows.push(`L${d},${d % 2 === 0 ? 'd6' : 'd3'},${1 + ((d + r) % (d % 2 === 0 ? 6 : 3))}`);
    const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
    const parsed = parseRollLog(`${rows.join('\n')}\n`, { file: 'many.csv', layouts });
    const result = analyzeDiceStream(mergeLogs([parsed]).map((l) => resolveDieRolls(l, builtInDice)));
    expect(result.count).toBe(20_000);
    const symbolGroups = result.homogeneity.filter((g) => g.level === 'symbol');
    expect(symbolGroups.map((g) => [g.dieType, g.dice.length])).toEqual([
      ['d6', 10_000],
      ['d3', 10_000],
    ]);
    expect(symbolGroups[0]?.dice.slice(0, 3)).toEqual(['L0', 'L2', 'L4']);
  }, 60_000);
});
