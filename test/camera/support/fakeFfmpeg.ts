import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A stand-in for ffmpeg on a V4L2 camera, written into `dir`: it writes `frames` grey raw RGB frames of the size asked
 * for (its `-vf scale=W:H`), then, as `then` says, stalls with its pipe open (`stall`) or dies as an unplugged camera
 * does (`unplug`: exit 1, the V4L2 error on stderr).
 */
export async function fakeFfmpeg(dir: string, frames: number, then: 'stall' | 'unplug'): Promise<string> {
  const file = join(dir, `ffmpeg-${frames}-${then}.cjs`);
  const script = `#!/usr/bin/env node
const args = process.argv.slice(2);
const [w, h] = args[args.indexOf('-vf') + 1].replace('scale=', '').split(':').map(Number);
process.stdout.write(Buffer.alloc(w * h * 3 * ${frames}, 100), () => {
  if (${JSON.stringify(then)} === 'stall') return setInterval(() => undefined, 60000);
  process.stderr.write('[video4linux2,v4l2 @ 0x5581] ioctl(VIDIOC_DQBUF): No such device\\n', () => process.exit(1));
});
`;
  await writeFile(file, script, { mode: 0o755 });
  return file;
}
