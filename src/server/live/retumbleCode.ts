/**
 * Why a throw was tumbled again, as data: one code for the throw and one for each die concerned, sent in the live
 * `retumble` event beside the server's own words (`reason`, for the dashboard's log and API readers). The pages word
 * the codes for viewers; they never parse the words.
 */
import type { ProblemKind } from '../../session/throwOutcome.js';
import type { DeclineCause } from '../../vision/faceRead.js';

/**
 * `touching`: a blob of more than one die in a channel (or a second die there); `stray`: a die outside every channel;
 * `interrupted`: a rig or camera fault stopped the throw (it is void).
 */
export type RetumbleCode = 'cocked' | 'shadow' | 'touching' | 'stray' | 'unreadable' | 'missing' | 'wrong-die' | 'not-settled' | 'interrupted';

/** Most telling first: a throw (or a die) with several problems is said by the first of its codes here. */
const ORDER: readonly RetumbleCode[] = ['cocked', 'shadow', 'touching', 'stray', 'unreadable', 'missing', 'wrong-die', 'not-settled', 'interrupted'];

export interface RetumbleProblem {
  readonly kind: ProblemKind;
  readonly channel?: number;
  readonly cause?: DeclineCause;
}

function codeOf(p: RetumbleProblem): RetumbleCode {
  switch (p.kind) {
    case 'cocked':
      return 'cocked';
    case 'unreadable':
      return p.cause === 'shadow' ? 'shadow' : p.cause === 'touching' ? 'touching' : 'unreadable';
    case 'extra':
      return p.channel === undefined ? 'stray' : 'touching';
    case 'missing':
      return 'missing';
    case 'wrong-die':
      return 'wrong-die';
    case 'not-settled':
      return 'not-settled';
  }
}

const first = (codes: readonly RetumbleCode[]): RetumbleCode | undefined => ORDER.find((c) => codes.includes(c));

/** The throw's code and each die's (by channel): a void throw was interrupted, whatever else it says. */
export function retumbleCodes(status: 'rerolled' | 'void', problems: readonly RetumbleProblem[]): { code?: RetumbleCode; dice: { channel: number; code: RetumbleCode }[] } {
  if (status === 'void') return { code: 'interrupted', dice: [] };
  const channels = [...new Set(problems.flatMap((p) => (p.channel !== undefined ? [p.channel] : [])))].sort((a, b) => a - b);
  const dice = channels.map((channel) => ({ channel, code: first(problems.filter((p) => p.channel === channel).map(codeOf)) as RetumbleCode }));
  const code = first(problems.map(codeOf));
  return { ...(code !== undefined ? { code } : {}), dice };
}
