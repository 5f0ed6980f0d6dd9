/**
 * The named camera factories, as the rig has its driver factories
 * (`src/rig/factory.ts`): a session's `camera.source` names one, and the
 * factory opens the frames and describes the platform they show (channel
 * regions, the empty-platform reference, the die size in pixels).
 *
 * - `sim`: the simulated camera, which renders dice whose true faces it knows;
 * - `device`: a V4L2 camera through ffmpeg;
 * - `replay`: a folder of recorded frames.
 */
import { ConfigError } from '../core/errors.js';
import type { Rect, RgbImage } from '../core/image.js';
import { NamedRegistry } from '../core/registry.js';
import { rectChannel } from '../vision/channels.js';
import { checkChannelsInFrame, checkFrameSize, checkReferenceSize, type ChannelSource } from './platformFit.js';
import type { ChannelRegion } from '../vision/channels.js';
import { decodeImageFile } from './decode.js';
import { firstReplayedFrame, folderReplay } from './folderReplay.js';
import type { FrameSource } from './frameSource.js';
import { lightingPresets } from './sim/lighting.js';
import type { LightingPresetName } from './sim/lighting.js';
import { SimulatedCamera } from './sim/simulatedCamera.js';
import type { DieStyle } from './sim/dieArt.js';
import type { SimDieKind } from './sim/simulatedCamera.js';
import { v4l2Camera } from './v4l2Camera.js';

/** The platform as a calibration profile describes it, the default for a real camera's missing settings. */
export interface PlatformDescription {
  readonly channels?: readonly ChannelRegion[];
  /** Image file of the empty platform. */
  readonly referenceFile?: string;
  readonly dieSizePx?: number;
}

/** What any camera factory may be given; each uses what applies to it (as `RigFactoryOptions` does). */
export interface CameraFactoryOptions {
  /** How many dice (one channel each) the platform holds. */
  readonly dice: number;
  readonly fps: number;
  /** D6 side or d8 across-corners size, pixels (required for `sim`; a real camera falls back on the profile's). */
  readonly dieSizePx?: number;
  /** Simulated camera: seed, lighting preset, cocked rate, what each die is and how it looks. */
  readonly seed?: number;
  readonly lighting?: string;
  readonly cockedRate?: number;
  readonly dieKinds?: readonly SimDieKind[];
  readonly styles?: readonly DieStyle[];
  /** Device camera. */
  readonly device?: string;
  readonly width?: number;
  readonly height?: number;
  readonly exposure?: number;
  readonly gain?: number;
  /** Replay. */
  readonly folder?: string;
  /** Real cameras: channel rectangles and the empty-platform image, else the profile's. */
  readonly channels?: readonly Rect[];
  readonly referenceFile?: string;
  readonly profile?: PlatformDescription;
}

/** An opened camera: its frames (or the simulated camera itself) and the platform they show. */
export interface OpenedCamera {
  readonly channels: readonly ChannelRegion[];
  readonly reference: RgbImage;
  readonly dieSizePx: number;
  /** The simulated camera, rendered throw by throw by whoever knows the dice, who releases it after its last frame; absent for a real source. */
  readonly simulated?: SimulatedCamera;
  /** A real camera's or a recording's frames. */
  readonly frames?: FrameSource;
  /** Whether the frames are a recording (played at its own pace, not live). */
  readonly replay: boolean;
  /** A real camera: which of its controls were locked (or why none could be), for the session's first lines. */
  readonly controls?: string;
}

/** Opens one kind of camera. */
export interface CameraFactory {
  readonly name: string;
  /** One line for `--help` and error messages. */
  readonly description: string;
  open(options: CameraFactoryOptions): Promise<OpenedCamera>;
}

/** The named camera factories; config chooses one by name. */
export class CameraFactoryRegistry extends NamedRegistry<CameraFactory> {
  constructor() {
    super('camera factory');
  }

  /** Opens a camera by factory name. */
  async open(name: string, options: CameraFactoryOptions): Promise<OpenedCamera> {
    const factory = this.find(name);
    if (!factory) throw new ConfigError('camera.source', `there is no camera source "${name}"; choose one of ${this.names().join(', ')}`);
    return factory.open(options);
  }
}

function required<T>(value: T | undefined, key: string, what: string): T {
  if (value === undefined) throw new ConfigError(key, `${what} is needed`);
  return value;
}

export const simCameraFactory: CameraFactory = {
  name: 'sim',
  description: 'the simulated camera: renders dice whose true faces it knows',
  async open(options) {
    const lighting = options.lighting ?? 'studio';
    if (!(lighting in lightingPresets)) throw new ConfigError('camera.lighting', `unknown lighting preset "${lighting}"; presets are ${Object.keys(lightingPresets).join(', ')}`);
    const dieSizePx = required(options.dieSizePx, 'camera.dieSizePx', 'the die size in pixels');
    const simulated = new SimulatedCamera({
      seed: options.seed ?? 0,
      lighting: lighting as LightingPresetName,
      channels: options.dice,
      ...(options.dieKinds ? { dice: options.dieKinds } : {}),
      dieSizePx,
      ...(options.cockedRate !== undefined ? { cockedRate: options.cockedRate } : {}),
      fps: options.fps,
      ...(options.styles ? { styles: options.styles } : {}),
    });
    let reference: RgbImage;
    try {
      reference = simulated.emptyPlatform();
    } catch (e) {
      // Never given to the caller: its sensor memory goes back here.
      simulated.release();
      throw e;
    }
    return { channels: simulated.layout.channels, reference, dieSizePx, simulated, replay: false };
  },
};

/** A real camera's or a recording's platform: the config's settings, else the calibration profile's. */
async function describePlatform(options: CameraFactoryOptions): Promise<Pick<OpenedCamera, 'channels' | 'reference' | 'dieSizePx'> & { referenceFile: string; channelSource: ChannelSource }> {
  // A session tells its dice apart by channel, one die each: a profile calibrated with several dice a channel lends its
  // regions, not its count, or a second die (two touching ones split apart) would go unflagged.
  const channels = options.channels ? options.channels.map((r, i) => rectChannel(i, r)) : (options.profile?.channels ?? []).map((c) => ({ ...c, expectedDice: 1 }));
  if (channels.length !== options.dice) {
    throw new ConfigError('camera.channels', `${channels.length} channel regions for ${options.dice} dice: give one rectangle per die (or calibrate on the rig)`);
  }
  const referenceFile = options.referenceFile ?? options.profile?.referenceFile;
  if (referenceFile === undefined) throw new ConfigError('camera.reference', 'a real camera needs an image of the empty platform (camera.reference, or a profile made on the rig)');
  const reference = await decodeImageFile(referenceFile);
  const dieSizePx = options.dieSizePx ?? options.profile?.dieSizePx;
  if (dieSizePx === undefined) throw new ConfigError('camera.dieSizePx', 'the die size in pixels is needed (camera.dieSizePx, or a profile made on the rig)');
  return { channels, reference, dieSizePx, referenceFile, channelSource: options.channels ? 'config' : 'profile' };
}

export const deviceCameraFactory: CameraFactory = {
  name: 'device',
  description: 'a V4L2 camera (e.g. /dev/video0) through ffmpeg',
  async open(options) {
    const { referenceFile, channelSource, ...platform } = await describePlatform(options);
    const width = required(options.width, 'camera.width', 'the frame width');
    const height = required(options.height, 'camera.height', 'the frame height');
    // ffmpeg is asked for this size, so a reference of another size is known wrong before any frame.
    checkReferenceSize(platform.reference, width, height, referenceFile, options.referenceFile !== undefined ? 'camera.reference' : 'calibration');
    checkChannelsInFrame(platform.channels, width, height, channelSource);
    const frames = v4l2Camera({
      device: required(options.device, 'camera.device', 'the camera device'),
      width,
      height,
      fps: options.fps,
      ...(options.exposure !== undefined ? { exposure: options.exposure } : {}),
      ...(options.gain !== undefined ? { gain: options.gain } : {}),
    });
    return { ...platform, frames, replay: false, controls: frames.controls };
  },
};

export const replayCameraFactory: CameraFactory = {
  name: 'replay',
  description: 'a folder of recorded frames, played in name order',
  async open(options) {
    const { referenceFile: _file, channelSource, ...platform } = await describePlatform(options);
    const folder = required(options.folder, 'camera.folder', 'the frame folder');
    // A recording's frames are its own size, whatever camera.width says: the first one is checked before any throw.
    const first = await firstReplayedFrame(folder);
    if (first !== undefined) checkFrameSize(first, platform.reference, `folder ${folder}`);
    checkChannelsInFrame(platform.channels, platform.reference.width, platform.reference.height, channelSource);
    return { ...platform, frames: folderReplay(folder, options.fps), replay: true };
  },
};

/** Every camera dicerig can open. */
export const cameraFactories = new CameraFactoryRegistry().register(simCameraFactory).register(deviceCameraFactory).register(replayCameraFactory);
