/**
 * Whether the simulated camera can lay out the dice asked for: each die rests inside its channel, kept a clearance
 * from the others so none hides another. Asked for more or bigger dice than fit, it would place the last ones over
 * the others after its tries run out, and a labelled folder would call hidden dice visible. Dice smaller than the
 * readers read at all are refused too: a folder of them measures nothing.
 */
import { MIN_D6_DIE_PX } from '../../vision/d6/pipReader.js';
import { MIN_D8_CROP_PX } from '../../vision/d8/dieOutline.js';
import { simulatedRigLayout } from './rigLayout.js';

/** The simulated camera's frame, pixels (`SimulatedCamera`). */
export const SIM_FRAME = { width: 1280, height: 720 } as const;
/** A die's size drawn up to this much over the size asked for. */
export const SIM_SIZE_JITTER = 1.04;
/** A die's centre is drawn at least this many die sizes inside its channel. */
export const SIM_PLACE_MARGIN = 0.8;
/** A die's centre is kept at least this many die sizes from another's in its channel. */
export const SIM_CLEARANCE = 1.7;

/** How many dice of `dieSizePx` a channel of `channels` holds, each clear of the others: the most a grid lays out. */
export function simChannelCapacity(channels: number, dieSizePx: number): number {
  const layout = simulatedRigLayout(channels, SIM_FRAME.width, SIM_FRAME.height);
  const rect = layout.channelRects[0];
  if (rect === undefined) return 0;
  const s = dieSizePx * SIM_SIZE_JITTER;
  const along = (length: number): number => (length < 2 * SIM_PLACE_MARGIN * s ? 0 : Math.floor((length - 2 * SIM_PLACE_MARGIN * s) / (SIM_CLEARANCE * s)) + 1);
  return along(rect.width) * along(rect.height);
}

/** The smallest die (pixels across) the readers of these dice read at all. */
export function simMinDieSize(d6: boolean): number {
  return d6 ? MIN_D6_DIE_PX : MIN_D8_CROP_PX;
}

/** Why these dice cannot be laid out in the simulated camera's frame (with what would fit), or undefined. */
export function simFitProblem(channels: number, dicePerChannel: number, dieSizePx: number, d6: boolean): string | undefined {
  const min = simMinDieSize(d6);
  if (dieSizePx < min) return `dice ${dieSizePx} px across are smaller than ${d6 ? 'the pip counter reads' : 'the X-Wing readers read'} at all (${min} px): give --die-size ${min} or more.`;
  const capacity = simChannelCapacity(channels, dieSizePx);
  if (capacity >= dicePerChannel) return undefined;
  const rect = simulatedRigLayout(channels, SIM_FRAME.width, SIM_FRAME.height).channelRects[0];
  const size = rect ? `${Math.floor(rect.width)} x ${Math.floor(rect.height)} px` : '';
  let largest = 0;
  for (let px = Math.floor(Math.min(SIM_FRAME.width, SIM_FRAME.height)); px >= min; px--) {
    if (simChannelCapacity(channels, px) >= dicePerChannel) {
      largest = px;
      break;
    }
  }
  let most = 0;
  for (let c = channels - 1; c >= 1; c--) {
    if (simChannelCapacity(c, dieSizePx) >= dicePerChannel) {
      most = c;
      break;
    }
  }
  const fits = [
    capacity > 0 ? `at most ${capacity} dice a channel of this size` : `no die this size in a channel`,
    ...(largest > 0 ? [`dice at most ${largest} px across`] : []),
    ...(most > 0 ? [`at most ${most} channels`] : []),
  ];
  return `${dicePerChannel} dice ${dieSizePx} px across do not fit in each of ${channels} channels of the ${SIM_FRAME.width} x ${SIM_FRAME.height} frame (${size} each, every die ${SIM_CLEARANCE} times its size from the next so none hides another); what fits: ${fits.join(', or ')}.`;
}
