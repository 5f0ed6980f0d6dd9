/**
 * A labelled frame read as a session reads a throw: every die located against
 * the empty platform, judged by the blob checks and read (`readFrame`), then
 * matched to the labelled box that holds its centre. Reading crops cut around
 * labelled boxes skips location and the blob checks; a session does not, and a
 * flat die those checks call cocked is re-tumbled away there, a misread a check
 * of the reader must count. A labelled die with no located die of its own is
 * declined here: a session keeps such a die unresolved, never misread.
 */
import { rectChannel } from './channels.js';
import { cropRgb, type Rect, type RgbImage } from '../core/image.js';
import type { FaceRead, FaceReader } from './faceRead.js';
import { readFrame, type DieReading, type FrameReading, type PipelineOptions } from './pipeline.js';

/** A labelled die: its box in pixels and its class. */
export interface LabelledBoxPx {
  readonly box: Rect;
  readonly label: string;
}

function holds(box: Rect, p: { readonly x: number; readonly y: number }): boolean {
  return p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height;
}

/**
 * A frame read as a session reads a throw, the whole frame one channel of `dice` dice: a rig's channels are not in a
 * labelled folder. The guided D6 check reads its throws so too, so the dice it names are the dice its check locates.
 */
export function readWholeFrame(frame: RgbImage, reference: RgbImage, dice: number, reader: FaceReader, options: PipelineOptions): FrameReading {
  const channel = rectChannel(0, { x: 0, y: 0, width: frame.width, height: frame.height }, Math.max(1, dice));
  return readFrame(frame, reference, [channel], reader, options);
}

/** One read per labelled box, in order: the read of the located die whose centre the box holds (the nearest its own centre). */
export function readLabelledFrame(frame: RgbImage, reference: RgbImage, boxes: readonly LabelledBoxPx[], reader: FaceReader, options: PipelineOptions): FaceRead[] {
  const reading = readWholeFrame(frame, reference, boxes.length, reader, options);
  const taken = new Set<DieReading>();
  return boxes.map(({ box }) => {
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    let best: DieReading | undefined;
    let bestD = Infinity;
    for (const r of reading.readings) {
      if (taken.has(r) || !holds(box, r.die.center)) continue;
      const d = Math.hypot(r.die.center.x - cx, r.die.center.y - cy);
      if (d < bestD) [best, bestD] = [r, d];
    }
    if (best !== undefined) {
      taken.add(best);
      return best.read;
    }
    const crop = cropRgb(frame, box);
    return { status: 'unreadable', cause: 'not-located', confidence: 0, classifierVersion: reader.classifierVersion, crop, reason: 'No die was located on its own here (in no blob, or in a blob centred off it).' };
  });
}
