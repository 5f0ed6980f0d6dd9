/**
 * The review page's server as `dicerig review 1 --db DB --reviewer NAME` serves it (the same createReviewServer, store
 * opened for writing, 127.0.0.1 on a free port), run in the test's own process. For tests of what the page does, not
 * of the command: starting the command in a process of its own costs some 2 s of CPU loading the CLI each time.
 * test/e2e/review.e2e.test.ts runs the command itself.
 */
import { createReviewServer } from '../../../src/server/review/reviewApp.js';
import { openStoreForWriting } from '../../../src/store/openStore.js';

export interface ReviewServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves session 1 of `db` for `reviewer` (given as --reviewer would give it); its address, without the trailing slash. */
export async function startReviewInProcess(db: string, reviewer: string): Promise<ReviewServer> {
  const store = openStoreForWriting(db, { create: false });
  try {
    const app = await createReviewServer({ store, sessionId: 1, reviewer, reviewerGiven: true, now: () => Date.now() });
    await app.listen({ host: '127.0.0.1', port: 0 }).catch(async (e: unknown) => {
      await app.close();
      throw e;
    });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    let closed: Promise<void> | undefined;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => (closed ??= app.close().then(() => store.close())),
    };
  } catch (e) {
    store.close();
    throw e;
  }
}
