/**
 * A batch's last steps against the fleet (its session's last throws copied, the batch closed) waited out through a
 * short fleet outage: a rig that rolled its batch while the fleet store was down would otherwise stop with the batch
 * open, and `dicerig sync` copies throws but closes no batch. After the last try the error says what closes it.
 */
import { FleetUnreachableError } from '../../fleet/errors.js';

/** What copies the throws a batch session's replication left behind: the rig host itself, before it closes the batch (`dicerig sync` would close none). */
export const BATCH_CATCH_UP = 'this rig host copies them next (before it closes the batch), or says what to run.';

/** Waits between tries (ms): about a minute in all before giving up. */
export const CLOSE_RETRY_MS: readonly number[] = [2000, 5000, 10000, 20000, 30000];

export async function closeWhenFleetAnswers(
  steps: () => Promise<void>,
  options: { readonly waitsMs?: readonly number[]; readonly sleep?: (ms: number) => Promise<void>; readonly say: (line: string) => void; readonly again: string },
): Promise<void> {
  const waits = options.waitsMs ?? CLOSE_RETRY_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      await steps();
      return;
    } catch (e) {
      // Only an outage is waited out: a refused login or a batch another rig holds will not mend in a minute.
      if (!(e instanceof FleetUnreachableError)) throw e;
      const wait = waits[attempt];
      if (wait === undefined) {
        throw new FleetUnreachableError(
          `${e.message} The batch stays open, its throws safe in the local store: once the fleet store answers, run ${options.again} again to copy its session and close the batch (dicerig sync copies the throws but closes no batch).`,
          e.where,
          { cause: e },
        );
      }
      options.say(`the fleet store did not answer while closing the batch (${e.message}); trying again in ${Math.round(wait / 1000)} s.`);
      await sleep(wait);
    }
  }
}
