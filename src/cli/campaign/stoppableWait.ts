/**
 * A rig host's wait between asks for dice, cut short by Ctrl-C, SIGTERM (systemd, docker stop) or SIGHUP. Nothing
 * is held while it waits, so a stop here loses nothing; without its own listeners the signal would kill the process
 * with nothing said and the fleet connection left open.
 */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Resolves after `ms`, or at once with the signal that stopped the wait. */
export function waitUnlessStopped(ms: number): Promise<NodeJS.Signals | undefined> {
  return new Promise((resolve) => {
    const end = (signal: NodeJS.Signals | undefined): void => {
      clearTimeout(timer);
      for (const s of STOP_SIGNALS) process.off(s, onSignal);
      resolve(signal);
    };
    const onSignal = (signal: NodeJS.Signals): void => end(signal);
    const timer = setTimeout(() => end(undefined), ms);
    for (const s of STOP_SIGNALS) process.on(s, onSignal);
  });
}
