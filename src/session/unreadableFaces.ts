/**
 * Dice whose reader seems unable to read one of their faces (`RobustMonitor.unreadableFace`): every roll of that face
 * ends unresolved, so FAIR_WITHIN is out of reach without a review however long the die rolls (UNFAIR may still be
 * reached). Each such die is said once per run, with what would read the face.
 */
import { isD6Faced } from '../dice/indexing.js';
import { LEARN_FACES_COMMAND } from './d6CheckChoice.js';
import type { DieTrack } from './dieTrack.js';

export interface UnreadableFace {
  readonly track: DieTrack;
  /** The face's label (`6`, `hit`). */
  readonly face: string;
  readonly message: string;
}

export class UnreadableFaces {
  /** Dice already said this run. */
  private readonly said = new Set<string>();

  /** The dice among `tracks`, still rolling, that newly show an unreadable face. */
  newlySeen(tracks: readonly DieTrack[]): UnreadableFace[] {
    const found: UnreadableFace[] = [];
    for (const track of tracks) {
      const label = track.die.record.label;
      if (track.retired || this.said.has(label)) continue;
      const unread = track.monitor.unreadableFace();
      if (unread === undefined) continue;
      this.said.add(label);
      const fix = isD6Faced(track.die.type)
        ? ` If that face is a logo, a D6 check that learns your dice's faces reads it: ${LEARN_FACES_COMMAND}, given as calibration.`
        : ' A calibration made on your own dice may read it (dicerig calibrate).';
      found.push({ track, face: unread.label, message: `${unread.sentence}, so FAIR_WITHIN is out of reach without a review of its unresolved rolls (dicerig review).${fix}` });
    }
    return found;
  }
}
