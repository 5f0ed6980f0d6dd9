/**
 * A throw's frame read again without being read twice. Re-reading a declined die (`reread.ts`) reads further frames;
 * the simulated camera's rest mode shows one rendered frame over and over, so those frames are the very image read
 * just before. Locating the dice, judging their outlines and what lies beside them and reading each flat die are pure
 * work on that image (the same answers again): they are done once per image, at some 20 ms a frame.
 *
 * What is drawn afresh at every read stays drawn at every read: the simulated reader's misreads and declines
 * (`misreadingReader`, `decliningReader`) wrap the reader that reads the crops, and are asked again for each read, in
 * the order the pipeline reads the dice, with the wrapped reader answering from what it read the first time.
 */
import type { RgbImage } from '../core/image.js';
import type { DieCrop, FaceRead, FaceReader } from '../vision/faceRead.js';
import type { FrameReading } from '../vision/pipeline.js';

/** The read of each die the reader read on the image last read, in the order it read them. */
interface LastFrame {
  readonly image: RgbImage;
  readonly reading: FrameReading;
  readonly crops: readonly DieCrop[];
  readonly reads: readonly FaceRead[];
}

/**
 * `readWith(image, reader)` (the pipeline) as a function of the image alone, for a reader made by `wrap` round `inner`
 * (what draws afresh at every read round the reader of crops; `wrap` must make a reader that asks its `inner` once
 * per read, as those wrappers do). An image read again, the same object, is not located nor read again.
 */
export function sameFrameReads(
  readWith: (image: RgbImage, reader: FaceReader) => FrameReading,
  inner: FaceReader,
  wrap: (reader: FaceReader) => FaceReader,
): (image: RgbImage) => FrameReading {
  const like = (read: (crop: DieCrop) => FaceRead): FaceReader => ({
    classifierVersion: inner.classifierVersion,
    ...(inner.judgesTilt !== undefined ? { judgesTilt: inner.judgesTilt } : {}),
    read,
  });
  let last: LastFrame | undefined;
  return (image) => {
    if (last?.image !== image) {
      const crops: DieCrop[] = [];
      const reads: FaceRead[] = [];
      const reading = readWith(
        image,
        like((crop) => {
          const read = inner.read(crop);
          crops.push(crop);
          reads.push(read);
          return read;
        }),
      );
      last = { image, reading, crops, reads };
    }
    const { reading, crops, reads } = last;
    // The wrapped reader, asked for each die in turn as the pipeline asked, answering from what the reader read.
    let next = 0;
    const wrapped = wrap(like(() => reads[next++] as FaceRead));
    const shown = reads.map((_, k) => wrapped.read(crops[k] as DieCrop));
    // The pipeline read the dice in the order of its readings: the k-th read is the next reading holding it.
    let k = 0;
    const readings = reading.readings.map((r) => (k < reads.length && r.read === reads[k] ? { ...r, read: shown[k++] as FaceRead } : r));
    return { ...reading, readings };
  };
}
