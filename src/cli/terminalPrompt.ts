/**
 * Questions asked at the terminal through one line reader for the whole run.
 * A reader made per question loses what was typed or pasted ahead of it (the
 * first takes every buffered line and closes), so answers pasted at once named
 * one group and the rest was taken for the end of input. Lines given ahead are
 * kept, in order, as the answers to the next questions. The end of input
 * (Ctrl+D) is an error that says so, not a stack trace. The terminal stays in
 * its own line mode: Ctrl+C interrupts the run as anywhere else.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { DicerigError } from '../core/errors.js';

export interface TerminalPrompt {
  /** Writes the question and resolves with the next line given (one given ahead first). */
  ask(question: string): Promise<string>;
  /** Stops reading the terminal (the run can then end). */
  close(): void;
}

/** `ended`: what the error says once the input ends with a question open (where the work so far was kept). */
export function terminalPrompt(ended: string, input: Readable = process.stdin, output: Writable = process.stdout): TerminalPrompt {
  const reader = createInterface({ input, terminal: false });
  const ahead: string[] = [];
  let waiting: { resolve: (line: string) => void; reject: (e: Error) => void; question: string } | undefined;
  let closed = false;
  const endedError = (question: string): DicerigError => new DicerigError(`The input ended (Ctrl+D, or the last of the answers given) before "${question.trim()}" was answered: ${ended}`);
  reader.on('line', (line) => {
    const w = waiting;
    waiting = undefined;
    if (w) w.resolve(line);
    else ahead.push(line);
  });
  reader.on('close', () => {
    closed = true;
    const w = waiting;
    waiting = undefined;
    w?.reject(endedError(w.question));
  });
  return {
    ask(question) {
      output.write(question);
      const given = ahead.shift();
      if (given !== undefined) {
        // Piped answers are shown after their questions, as if typed there (a terminal echoed them as they came).
        if ((input as { isTTY?: boolean }).isTTY !== true) output.write(`${given}\n`);
        return Promise.resolve(given);
      }
      if (closed) return Promise.reject(endedError(question));
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject, question };
      });
    },
    close() {
      reader.close();
    },
  };
}
