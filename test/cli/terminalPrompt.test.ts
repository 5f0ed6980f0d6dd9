import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DicerigError } from '../../src/core/errors.js';
import { terminalPrompt } from '../../src/cli/terminalPrompt.js';

function streams(): { input: PassThrough; output: PassThrough; shown: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (b: Buffer) => (text += b.toString()));
  return { input, output, shown: () => text };
}

describe('questions at the terminal', () => {
  it('takes answers pasted ahead of their questions, in order, none lost', async () => {
    const { input, output, shown } = streams();
    const t = terminalPrompt('kept in T', input, output);
    input.write('1\n2\nsplit\n');
    // Let the reader take the pasted lines before the first question.
    await new Promise((r) => setImmediate(r));
    expect(await t.ask('Group 1? ')).toBe('1');
    expect(await t.ask('Group 2? ')).toBe('2');
    expect(await t.ask('Group 3? ')).toBe('split');
    const later = t.ask('Group 4? ');
    input.write('cocked\n');
    expect(await later).toBe('cocked');
    t.close();
    // Piped answers are shown after their questions.
    expect(shown()).toBe('Group 1? 1\nGroup 2? 2\nGroup 3? split\nGroup 4? ');
  });

  it('says the input ended, and where the work is kept, when it ends with a question open or before one', async () => {
    const { input, output } = streams();
    const t = terminalPrompt('every throw is kept in T.throws', input, output);
    const open = t.ask('Group 1: what do they show? ');
    input.end();
    await expect(open).rejects.toThrow(DicerigError);
    await expect(open).rejects.toThrow('The input ended (Ctrl+D, or the last of the answers given) before "Group 1: what do they show?" was answered: every throw is kept in T.throws');
    await expect(t.ask('Group 2? ')).rejects.toThrow(/before "Group 2\?" was answered/);
  });
});
