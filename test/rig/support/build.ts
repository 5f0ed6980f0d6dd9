import { execFileSync } from 'node:child_process';
import { firmwareDir } from '../../../src/rig/emulator/emulatedBoard.js';

/** Builds firmware, harness and host test (a no-op when up to date); fails naming the toolchain if it cannot. */
export function buildFirmware(): string {
  const dir = firmwareDir();
  try {
    execFileSync('make', ['-s', '-C', dir, 'all', 'sim', 'hosttest'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(
      `make -C firmware failed (is the toolchain installed? run bash scripts/setup.sh): ${e.stderr?.toString() ?? e.message}`,
    );
  }
  return dir;
}
