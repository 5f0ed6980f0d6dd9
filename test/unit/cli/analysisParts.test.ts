import { describe, expect, it } from 'vitest';
import { analyzeDice, analyzeDiceStream } from '../../../src/analysis/analyze.js';
import { resolveDieRolls } from '../../../src/analysis/dieRolls.js';
import { analysisJson, analysisJsonParts } from '../../../src/cli/format/analysisJson.js';
import { analysisTextParts, formatAnalysisText } from '../../../src/cli/format/analysisText.js';
import { writeParts } from '../../../src/cli/io.js';
import { builtInDice } from '../../../src/dice/catalogue.js';
import { mergeLogs } from '../../../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';

const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));

function rollsOf(csv: string) {
  return mergeLogs([parseRollLog(csv, { file: 'box.csv', layouts })]).map((l) => resolveDieRolls(l, builtInDice));
}

/** Red dice (faces, so two levels each), a green die and a D6: every part of the report. */
const box = ['die,type,face'];
for (let t = 0; t < 40; t++) {
  box.push(`R1,red,${['hit-1', 'hit-2', 'hit-3', 'crit', 'focus-1', 'focus-2', 'blank-1', 'blank-2'][t % 8]}`);
  box.push(`R2,red,${['hit-1', 'crit', 'focus-1', 'blank-2', 'hit-2'][t % 5]}`);
  box.push(`G1,green,${['evade-1', 'evade-2', 'evade-3', 'focus-1', 'focus-2', 'blank-1', 'blank-2', 'blank-3'][(t * 3) % 8]}`);
  box.push(`D1,d6,${1 + (t % 6)}`);
}
const csv = `${box.join('\n')}\n`;

function written(parts: Iterable<string>, separator?: string): { text: string; writes: number } {
  let text = '';
  let writes = 0;
  writeParts({ out: (s) => ((text += s), writes++), err: () => undefined, setExitCode: () => undefined }, parts, separator);
  return { text, writes };
}

describe('the analysis written die by die', () => {
  it('writes the same text report as the whole analysis, made one die at a time', () => {
    const stream = analyzeDiceStream(rollsOf(csv));
    const whole = formatAnalysisText(analyzeDice(rollsOf(csv)));
    expect(whole).toContain('Are the dice alike?');
    expect(written(analysisTextParts(stream, stream.dice()), '\n').text).toBe(whole);
  });

  it('writes --json in the standard two-space layout, one die at a time, with every die in order', () => {
    const stream = analyzeDiceStream(rollsOf(csv));
    const { text } = written(analysisJsonParts(stream, stream.dice()));
    expect(JSON.stringify(JSON.parse(text), null, 2)).toBe(text);
    const json = JSON.parse(text);
    expect(json.dice.map((d: { label: string }) => d.label)).toEqual(['R1', 'R2', 'G1', 'D1']);
    expect(json.dice[0].face.categories).toHaveLength(8);
    expect(json.homogeneity.map((h: { type: string; level: string }) => `${h.type} ${h.level}`)).toEqual(['red symbol', 'red face']);
    expect(text).toBe(analysisJson(analyzeDice(rollsOf(csv))));
  });

  it('writes an analysis of no dice as an empty list', () => {
    const stream = analyzeDiceStream([]);
    const { text } = written(analysisJsonParts(stream, stream.dice()));
    expect(JSON.parse(text).dice).toEqual([]);
    expect(JSON.stringify(JSON.parse(text), null, 2)).toBe(text);
  });

  it('makes each die only when it is written, and in few large writes', () => {
    const rows = ['die,type,face'];
    for (let d = 0; d < 300; d++) for (let r = 0; r < 3; r++) rows.push(`L${d},d6,${1 + ((d + r) % 6)}`);
    const stream = analyzeDiceStream(rollsOf(`${rows.join('\n')}\n`));
    const dice = stream.dice();
    expect(dice.next().value?.label).toBe('L0');
    expect(dice.next().value?.label).toBe('L1');
    const { text, writes } = written(analysisTextParts(stream, stream.dice()), '\n');
    expect(text.length).toBeGreaterThan(65_536 * 3);
    // One write per 64 KiB or so, not one a die.
    expect(writes).toBeLessThanOrEqual(Math.ceil(text.length / 65_536) + 1);
  });
});
