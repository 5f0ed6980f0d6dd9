/**
 * Frames from an ffmpeg child process writing raw RGB (`-f rawvideo -pix_fmt
 * rgb24 -`) to stdout: the V4L2 camera and ffmpeg's
 * synthetic test sources all go through this one reader.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { DicerigError } from '../core/errors.js';
import { CameraFaultError, lastLine } from './cameraErrors.js';
import { frameSourceFrom } from './frameSource.js';
import type { Frame, FrameSource } from './frameSource.js';

export interface FfmpegSourceOptions {
  /** ffmpeg input arguments (everything before the output options), e.g. `['-f', 'v4l2', '-i', '/dev/video0']`. */
  readonly inputArgs: readonly string[];
  readonly width: number;
  readonly height: number;
  readonly description: string;
  /** Milliseconds clock for timestamps (default: performance.now); replays pass frame-index time instead. */
  readonly clock?: () => number;
  /** Timestamps from the frame index at this rate instead of the clock (replays). */
  readonly fps?: number;
  readonly ffmpegPath?: string;
  /** Turns ffmpeg's stderr into a typed error when it exits early. */
  readonly explainFailure?: (stderr: string, code: number | null) => DicerigError;
}

/** A typed error for an ffmpeg that is not installed. */
export function ffmpegMissingError(path: string): DicerigError {
  return new DicerigError(`ffmpeg was not found (tried "${path}"): install it (Debian: apt-get install ffmpeg, or run scripts/setup.sh).`, { command: path });
}

/** The fault of an ffmpeg that stopped on its own once it had started: how it ended, after how many frames, and its last line on stderr. */
export function ffmpegStopped(description: string, code: number | null, signal: NodeJS.Signals | null, frames: number, stderr: string): CameraFaultError {
  const how = code !== null ? `exited with code ${code}` : `was stopped by ${signal ?? 'a signal'}`;
  const words = lastLine(stderr);
  return new CameraFaultError(`${description} stopped: ffmpeg ${how} after ${frames === 1 ? '1 frame' : `${frames} frames`}${words !== undefined ? `, saying "${words}"` : ''}`, description, 'ended', words);
}

/** Starts ffmpeg and yields its frames. The process is killed on close or when iteration stops. */
export function ffmpegFrameSource(options: FfmpegSourceOptions): FrameSource {
  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const frameBytes = options.width * options.height * 3;
  let child: ChildProcessByStdio<null, Readable, Readable> | undefined;
  // Set when dicerig ends ffmpeg itself: its exit is then no fault of the camera's.
  let stopping = false;
  const stop = (): void => {
    stopping = true;
    if (child && child.exitCode === null && !child.killed) child.kill('SIGTERM');
  };
  async function* generate(): AsyncGenerator<Frame> {
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...options.inputArgs,
      '-vf',
      `scale=${options.width}:${options.height}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ];
    const proc = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    stopping = false;
    let stderr = '';
    proc.stderr.setEncoding('utf8');
    // Its tail: why ffmpeg stopped is said last, after however many warnings a long run collected.
    proc.stderr.on('data', (s: string) => {
      stderr = (stderr + s).slice(-8000);
    });
    let spawnError: Error | undefined;
    proc.on('error', (e) => {
      spawnError = e;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('close', (code, signal) => resolve({ code, signal })));
    const clock = options.clock ?? (() => performance.now());
    let pending: Buffer = Buffer.alloc(0);
    let index = 0;
    try {
      for await (const chunk of proc.stdout as AsyncIterable<Buffer>) {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        while (pending.length >= frameBytes) {
          const data = new Uint8Array(frameBytes);
          data.set(pending.subarray(0, frameBytes));
          pending = pending.subarray(frameBytes);
          const timestampMs = options.fps ? (index * 1000) / options.fps : clock();
          yield { image: { width: options.width, height: options.height, data }, timestampMs, index: index++ };
        }
      }
      const { code, signal } = await exited;
      if (spawnError && (spawnError as NodeJS.ErrnoException).code === 'ENOENT') throw ffmpegMissingError(ffmpeg);
      if (spawnError) throw new DicerigError(`ffmpeg could not be started: ${spawnError.message}`, { command: ffmpeg });
      // Ended by dicerig, or a finite input (a test pattern of fixed length) played to its end.
      if (stopping || code === 0) return;
      if (code !== 0 && code !== null && index === 0) {
        throw options.explainFailure?.(stderr, code) ?? new DicerigError(`${options.description}: ffmpeg exited with code ${code}: ${stderr.trim()}`, { command: ffmpeg });
      }
      // After frames (or killed before any): the camera stopped. Said with the device and ffmpeg's own last words.
      throw ffmpegStopped(options.description, code, signal, index, stderr);
    } finally {
      stop();
    }
  }
  return frameSourceFrom(options.description, generate, stop);
}
