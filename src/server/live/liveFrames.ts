/**
 * The frames the vision pipeline read, as the pages see them: the last few are
 * kept (for the dashboard's picture and each die's crop), and each read is
 * announced on the live stream, the frame with its dice outlined, then every
 * die read.
 */
import type { RgbImage } from '../../core/image.js';
import type { SessionDie } from '../../session/sessionDie.js';
import type { FrameReading } from '../../vision/pipeline.js';
import type { LiveHub } from './hub.js';
import { asKind, type DieKind } from '../rolls/dieKinds.js';

export type Mode = 'fairness' | 'stream';

export interface LiveFrame {
  readonly id: number;
  readonly image: RgbImage;
  readonly reading: FrameReading;
  readonly mode: Mode;
  readonly rollId?: string;
  /** Channels the throw counts. */
  readonly counted: readonly number[];
}

/** What the rig is throwing for when a frame is read. */
export interface ThrowContext {
  readonly mode: Mode;
  readonly rollId?: string;
  readonly counted: readonly number[];
  /** A stream roll's die kind of each channel thrown (a D3 from a d6 channel): a die read is announced as that kind shows it. */
  readonly kinds?: ReadonlyMap<number, DieKind>;
}

const KEEP_FRAMES = 8;

export class LiveFrames {
  private readonly frames: LiveFrame[] = [];
  private lastId = 0;
  private readonly byChannel: ReadonlyMap<number, SessionDie>;

  constructor(
    private readonly hub: LiveHub,
    dice: readonly SessionDie[],
    private readonly now: () => number,
  ) {
    this.byChannel = new Map(dice.map((d) => [d.channel, d]));
  }

  /** A settled frame was read: keep it for the dashboard, announce each die read. */
  read(image: RgbImage, reading: FrameReading, context: ThrowContext): void {
    const id = ++this.lastId;
    const frame: LiveFrame = { id, image, reading, mode: context.mode, ...(context.rollId ? { rollId: context.rollId } : {}), counted: context.counted };
    this.frames.push(frame);
    if (this.frames.length > KEEP_FRAMES) this.frames.shift();
    const at = this.now();
    this.hub.publish({ type: 'frame', at, ...this.info(frame) });
    reading.readings.forEach((r, i) => {
      if (r.channel === undefined) return;
      const die = this.byChannel.get(r.channel);
      const kind = context.kinds?.get(r.channel);
      // The die as the roll's answer will show it (`kind`, `shows`), beside what the reader saw (`dieType`, `symbol`).
      const shows = kind !== undefined && r.read.status === 'read' && r.read.symbol !== undefined ? asKind(kind, { type: die?.type.id ?? '', ...(die?.level === 'face' ? { faceId: r.read.symbol } : {}), symbol: r.read.symbol, channel: r.channel, label: '' }).symbol : undefined;
      this.hub.publish({
        type: 'die-read',
        at,
        frame: id,
        mode: frame.mode,
        ...(frame.rollId ? { rollId: frame.rollId } : {}),
        channel: r.channel,
        counted: frame.counted.includes(r.channel),
        label: die?.record.label ?? '',
        dieType: die?.type.id ?? '',
        status: r.read.status,
        ...(r.read.symbol !== undefined ? { symbol: r.read.symbol } : {}),
        ...(kind !== undefined ? { kind } : {}),
        ...(shows !== undefined ? { shows } : {}),
        confidence: Number(r.read.confidence.toFixed(3)),
        crop: `/live/crop/${id}/${i}.png`,
      });
    });
  }

  /** A frame as the pages draw it: its picture's address and each die's box and reading. */
  info(frame: LiveFrame): Record<string, unknown> {
    return {
      frame: frame.id,
      url: `/live/frame/${frame.id}.jpg`,
      width: frame.image.width,
      height: frame.image.height,
      mode: frame.mode,
      dice: frame.reading.readings.map((r) => ({
        channel: r.channel ?? null,
        label: (r.channel === undefined ? undefined : this.byChannel.get(r.channel)?.record.label) ?? '',
        bbox: r.die.bbox,
        status: r.read.status,
        symbol: r.read.symbol ?? null,
        confidence: Number(r.read.confidence.toFixed(3)),
      })),
    };
  }

  /** A kept frame (for its picture), if still kept. */
  get(id: number): LiveFrame | undefined {
    return this.frames.find((f) => f.id === id);
  }

  latest(): LiveFrame | undefined {
    return this.frames.at(-1);
  }
}
