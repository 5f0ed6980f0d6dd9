/**
 * A real camera on Linux through V4L2: ffmpeg reads /dev/videoN; exposure, gain,
 * focus and white balance are locked first with v4l2-ctl when it is installed, so
 * the reference image and the frames of a long run stay comparable.
 */
import { spawnSync } from 'node:child_process';
import { DicerigError } from '../core/errors.js';
import { ffmpegFrameSource } from './ffmpegSource.js';
import type { FrameSource } from './frameSource.js';

export interface V4l2CameraOptions {
  readonly device: string;
  readonly width: number;
  readonly height: number;
  readonly fps?: number;
  /** Manual exposure (camera units) to lock; omit to lock whatever is current by turning auto off only. */
  readonly exposure?: number;
  /** Manual gain (camera units) to lock; omit to keep the current gain (auto gain is turned off either way). */
  readonly gain?: number;
  readonly ffmpegPath?: string;
  readonly v4l2CtlPath?: string;
}

/** The error for a camera that cannot be opened, naming the device and the fix. */
export function cameraOpenError(device: string, stderr: string, setting = 'camera.device'): DicerigError {
  const busy = /busy/i.test(stderr);
  // ffmpeg words a refused open "Cannot open video device …: Permission denied", so permission is asked first.
  const denied = /permission denied|operation not permitted/i.test(stderr);
  const missing = /no such file|cannot open video device|not found/i.test(stderr);
  const fix = busy
    ? 'another program is using it: close it (check with `fuser ' + device + '`) and try again'
    : denied
      ? `this user may not open it: add the user to the device's group (usually \`video\`: \`sudo usermod -aG video $USER\`, then log in again; \`ls -l ${device}\` shows the group)`
      : missing
      ? `it does not exist: plug the camera in and check \`ls /dev/video*\` (or \`v4l2-ctl --list-devices\`), then set ${setting}`
      : 'check the device path, its permissions (group `video`) and the resolution it supports (`v4l2-ctl --list-formats-ext`)';
  return new DicerigError(`Camera ${device} could not be opened: ${fix}. ffmpeg said: ${stderr.trim().split('\n').pop() ?? ''}`, { device });
}

/**
 * Locks exposure, gain, focus and white balance. Returns what it did, or why it could not (never throws: not every
 * camera has every control). Auto gain re-levels the picture as auto exposure does (cameras that have it, e.g. many
 * UVC webcams, keep it on with manual exposure), so it is turned off too.
 */
export function lockCameraControls(device: string, levels: { readonly exposure?: number; readonly gain?: number } = {}, v4l2Ctl = 'v4l2-ctl'): string {
  const controls = [
    'auto_exposure=1',
    ...(levels.exposure !== undefined ? [`exposure_time_absolute=${levels.exposure}`] : []),
    'gain_automatic=0',
    ...(levels.gain !== undefined ? [`gain=${levels.gain}`] : []),
    'focus_automatic_continuous=0',
    'white_balance_automatic=0',
  ];
  const done: string[] = [];
  for (const c of controls) {
    const r = spawnSync(v4l2Ctl, ['-d', device, `--set-ctrl=${c}`], { encoding: 'utf8' });
    if (r.error) return `v4l2-ctl is not installed (Debian: v4l-utils); exposure, gain, focus and white balance were left on automatic`;
    if (r.status === 0) done.push(c);
  }
  return done.length > 0 ? `locked ${done.join(', ')}` : `the camera accepted none of the lock controls`;
}

/** Opens the camera as a frame source. */
export function v4l2Camera(options: V4l2CameraOptions): FrameSource & { readonly controls: string } {
  const controls = lockCameraControls(
    options.device,
    { ...(options.exposure !== undefined ? { exposure: options.exposure } : {}), ...(options.gain !== undefined ? { gain: options.gain } : {}) },
    options.v4l2CtlPath,
  );
  const source = ffmpegFrameSource({
    inputArgs: [
      '-f',
      'v4l2',
      ...(options.fps ? ['-framerate', String(options.fps)] : []),
      '-video_size',
      `${options.width}x${options.height}`,
      '-i',
      options.device,
    ],
    width: options.width,
    height: options.height,
    description: `camera ${options.device}`,
    explainFailure: (stderr) => cameraOpenError(options.device, stderr),
    ...(options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {}),
  });
  // A camera unplugged and plugged back in comes up with its controls on automatic again: reopening locks them again.
  return Object.assign(source, { controls, reopen: (): FrameSource => v4l2Camera(options) });
}
