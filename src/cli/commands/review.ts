import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { InputError } from '../../core/errors.js';
import { createReviewServer } from '../../server/review/reviewApp.js';
import { checkListenable, listenFailure } from '../../server/security/bind.js';
import { refuseImported } from '../../session/importedSession.js';
import { openStoreForWriting } from '../../store/openStore.js';
import type { CliIo } from '../io.js';
import { DB_HELP, rollStorePath } from '../dbOption.js';
import { portArg } from './serve.js';

/** The review page is served to this machine only. */
const HOST = '127.0.0.1';

interface ReviewFlags {
  db?: string;
  port?: string;
  reviewer?: string;
}

/** The OS user's name, the default reviewer (USER when the system cannot say). */
function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? '';
  }
}

/** Registers `dicerig review <session>`. */
export function registerReviewCommand(program: Command, io: CliIo): void {
  program
    .command('review')
    .summary('label the dice the reader declined or did not find, on a local web page')
    .description(
      'Serves a page on 127.0.0.1 showing the session\'s unresolved dice (the crops the reader would not read, or of a channel where no die was found, and why) in a grid; ' +
        'press the face each shows (1-8) or click it. Each label is stored as a person\'s, with who and when, in its own hash chain; ' +
        'the session\'s verdicts are remade and stored after each, so analyze and report count the reviewed rolls. Ctrl-C stops.',
    )
    .argument('<session>', 'session id or name')
    .option('--db <path>', DB_HELP)
    .option('--port <n>', 'port (default 0: a free one)')
    .option('--reviewer <name>', 'who gives the labels (default: the OS user name)')
    .action(async (sessionKey: string, flags: ReviewFlags) => {
      const port = flags.port !== undefined ? portArg(flags.port) : 0;
      const reviewer = (flags.reviewer ?? osUser()).trim();
      if (reviewer === '' || /[\r\n]/.test(reviewer)) {
        throw new InputError(flags.reviewer === undefined ? 'give --reviewer NAME: the OS user name was not found' : '--reviewer needs a name on one line');
      }
      const db = rollStorePath(flags.db);
      // Before the store is opened: a port in use (the review of this session open already, say) is told in one line.
      await checkListenable(HOST, port, 'dicerig review');
      const store = openStoreForWriting(db, { create: false });
      try {
        const session = store.findSession(sessionKey);
        // Its rolls came from files: no crops were kept to show, and its config is the import's, not a run's.
        refuseImported(session, 'review');
        const unresolved = store.unresolvedRolls(session.id);
        const todo = unresolved.filter((r) => !r.cannotTell).length;
        // Rolls a person answered already (a face, or "cannot tell"): the page serves them too, to correct a wrong answer.
        const answered = store.reviewLog.declined(session.id).length - todo;
        if (todo === 0 && answered === 0) {
          io.out(`Session ${session.id} has no declined rolls to review: nothing to do.\n`);
          return;
        }
        const app = await createReviewServer({ store, sessionId: session.id, reviewer, reviewerGiven: flags.reviewer !== undefined, now: () => Date.now() });
        try {
          await app.listen({ host: HOST, port });
        } catch (e) {
          await app.close();
          throw listenFailure(e, HOST, port, 'dicerig review');
        }
        const address = app.server.address();
        const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : port}/`;
        const open = session.state === 'running' ? `Session ${session.id} is still open: its run takes each label in at its next throw and makes the verdicts.\n` : '';
        const toCorrect = answered > 0 ? ` (and ${answered} answered, to correct if wrong)` : '';
        io.out(`dicerig review: session ${session.id}, ${todo} unresolved ${todo === 1 ? 'roll' : 'rolls'} to label${toCorrect} as ${reviewer}, roll store ${db}\n  ${url}\n${open}Ctrl-C stops.\n`);
        await new Promise<void>((done) => {
          const stop = (): void => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            void app.close().then(done, done);
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        });
      } finally {
        store.close();
      }
    });
}
