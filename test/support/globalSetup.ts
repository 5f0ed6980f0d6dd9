import { buildFirmware } from '../rig/support/build.js';

/**
 * Builds the firmware, the simavr harness and the host test once, before any test file runs.
 * Test files run in parallel workers; the rig files also call buildFirmware() (a no-op by then),
 * but two workers running `make` on an out-of-date tree at the same time would race on its outputs.
 */
export default function setup(): void {
  try {
    buildFirmware();
  } catch {
    // Without the toolchain only the files that need the firmware fail: their own buildFirmware() says what to install.
  }
}
