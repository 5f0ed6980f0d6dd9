/**
 * Why a queued roll is not being rolled, told to whoever asked for it: the rig rolls the queue only in stream mode
 * while stream rolling runs. Based on the run as well as the mode: a stopped stream holds its queue too, and an
 * idle fairness mode is not a fairness test under way.
 */
export function waitNote(state: { readonly mode: string; readonly run: unknown }): string | undefined {
  if (state.mode === 'fairness') {
    return state.run === 'running' || state.run === 'stopping'
      ? 'the rig is running a fairness test; the roll waits until stream rolling is on'
      : 'the rig is in fairness-test mode; the roll waits until stream rolling is on';
  }
  if (state.run === 'paused') return 'stream rolling is paused or stopped; the roll waits until it is started again';
  if (state.run === 'stopped') return 'stream rolling stopped by itself (the reason is on the dashboard and in /api/state); the roll waits until it is started again';
  return undefined;
}
