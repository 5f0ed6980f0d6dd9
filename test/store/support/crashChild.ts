/**
 * The writer killed by the crash test: opens the store, finds or resumes its
 * session, then records throws as fast as it can, printing `committed N` on
 * standard output (synchronously, straight to the pipe) each time
 * `recordThrow` returns. Throw N's content is a fixed function of N, so the
 * test can check every stored throw.
 */
import { writeSync } from 'node:fs';
import { RollStore } from '../../../src/store/rollStore.js';
import { crashThrow, CRASH_SESSION } from './crashThrows.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: crashChild.ts DB');
const store = RollStore.open(path);
const dice = ['R1', 'R2', 'G1', 'G2'].map((label) => store.registerDie({ label, typeId: label.startsWith('R') ? 'red' : 'green' }));
const existing = store.sessions().find((s) => s.name === CRASH_SESSION);
const session = existing ?? store.createSession({ name: CRASH_SESSION, config: { crash: true }, simulated: true, startedAt: 0 });
const last = existing === undefined ? 0 : store.resumeSession(session.id, 1).lastThrowIndex;
/** Writes a line whole: the pipe is non-blocking, and a busy parent can leave it full for a moment (EAGAIN). */
function say(line: string): void {
  const bytes = Buffer.from(line);
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(1, bytes, done);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    }
  }
}
say(`ready ${last}\n`);
for (let n = last + 1; ; n++) {
  const r = store.recordThrow(session.id, crashThrow(n, dice));
  say(`committed ${r.index}\n`);
}
