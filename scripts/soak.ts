/**
 * `npm run soak [-- THROWS]`: the serial driver and the real firmware (in
 * simavr) run THROWS tumbles (default 1,000) through a link that garbles 1 %
 * of the bytes, drops 1 % of the board's replies, and resets the board mid-
 * tumble every 200 to 400 throws, as fast as the firmware allows (flip_ms at
 * its minimum). Each throw is stored in a roll store (ok, or void when the
 * tumble failed). Prints throws, retransmits, voids, reconnects, and the
 * tumbles the board counted against the throws stored. Outside the test line:
 * it takes minutes. Targets: 0 lost, 0 tumbled twice, 0 void throws counted.
 *
 * The faults come from the test harness's fault-injecting link (test/rig/support).
 */
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { EmulatedBoard, type BoardEvent } from '../src/rig/emulator/emulatedBoard.js';
import { SerialRigDriver } from '../src/rig/serial/serialDriver.js';
import { seededRandom } from '../src/stats/random.js';
import { RollStore } from '../src/store/rollStore.js';
import { buildFirmware } from '../test/rig/support/build.js';
import { FaultyLinkBus } from '../test/rig/support/faultyLink.js';

const throws = Number(process.argv[2] ?? 1000);
const seed = Number(process.argv[3] ?? 15);
const BYTE_ERROR = 0.01;
const REPLY_DROP = 0.01;
const random = seededRandom(seed);
const FAST = { flip_ms: 100 };

buildFirmware();
const board = await EmulatedBoard.start();
board.pressSwitch('home');
const bus = new FaultyLinkBus(board.path);
// A line with n bytes is garbled with probability 1 - 0.99^n (one error anywhere fails its CRC); 1 % of the board's lines are lost.
const garbled = (line: string): boolean => random() < 1 - (1 - BYTE_ERROR) ** (line.length + 1);

const faults: string[] = [];
function newDriver(): SerialRigDriver {
  const d = new SerialRigDriver({ path: '/virtual/ttyACM0', openLink: bus.open, listPorts: bus.list, byIdDir: '/nonexistent-by-id' });
  d.onFault((f) => faults.push(f.kind));
  return d;
}
let driver = newDriver();
/** Link figures of drivers given up on (a closed driver cannot connect again; the soak makes a new one). */
const earlier = { commands: 0, retransmits: 0, crcFailures: 0, timeouts: 0, reconnects: 0 };

const store = RollStore.open(join(mkdtempSync(join(tmpdir(), 'dicerig-soak-')), 'soak.db'));
const rig = store.registerRig({ driver: 'serial', firmware: 'emulated', protocol: 1, rigId: 'soak', configHash: 'soak', tumbler: 'servo' });
const die = store.registerDie({ label: 'soak-d6', typeId: 'd6' });
const session = store.createSession({ name: `soak-${Date.now()}`, config: { throws, seed }, simulated: true, rigId: rig.id, startedAt: Date.now() });

/**
 * Motions the firmware started (D13 lights for each; the harness reports it across resets too). An ok
 * throw without one is a real fault, not an artefact of counting: the driver once resolved a resent
 * tumble with a heartbeat's status reply after a seq_stale resync gave both the same seq
 * (test/rig/faults.test.ts, "never resolves a tumble with the reply of a heartbeat").
 */
const motionStarts = (events: readonly BoardEvent[]): number => events.filter((e) => e.kind === 'pin' && e.name === 'D13' && e.value === 1).length;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Settings and position back after a failed tumble. The driver reconnects by
 * itself when the link was lost; when it gives up (under 1 % garbled bytes a
 * reconnect can fail), the soak connects it again, as a user would.
 */
async function recover(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await driver.configure(FAST);
      await driver.home();
      return;
    } catch (e) {
      if (attempt >= 200) throw e;
      recoveryRetries++;
      if (attempt % 10 === 0) {
        manualReconnects++;
        const old = driver.linkStats();
        for (const k of Object.keys(earlier) as (keyof typeof earlier)[]) earlier[k] += old[k];
        await driver.close().catch(() => undefined);
        driver = newDriver();
        await driver.connect().catch(() => undefined);
      }
      await sleep(250);
    }
  }
}

// SIGTERM or Ctrl-C ends the soak after the current throw, with the figures so far.
let stopRequested = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void (stopRequested = true));
let manualReconnects = 0;

let recoveryRetries = 0;
await driver.connect();
await driver.configure(FAST);
await driver.home();
// The faults start once the rig is set up.
bus.garbleToBoard(garbled, Infinity);
bus.garbleFromBoard(garbled, Infinity);
bus.dropFromBoard(() => random() < REPLY_DROP, Infinity);
let voids = 0;
let resets = 0;
let boardTumbles = 0;
let twice = 0;
let okWithoutMotion = 0;
let nextReset = 200 + Math.floor(random() * 201);
const t0 = performance.now();
let done = 0;
for (let n = 1; n <= throws && !stopRequested; n++) {
  done = n;
  const startedAt = Date.now();
  const resetNow = n === nextReset;
  if (resetNow) {
    resets++;
    nextReset += 200 + Math.floor(random() * 201);
    setTimeout(() => board.reset(), 20 + Math.floor(random() * 150));
  }
  const mark = board.events.length;
  try {
    await driver.tumble();
    const motions = motionStarts(board.events.slice(mark));
    boardTumbles += motions;
    if (motions > 1) twice++;
    if (motions === 0) okWithoutMotion++;
    store.recordThrow(session.id, { startedAt, endedAt: Date.now(), status: 'ok', rolls: [{ dieId: die.id, channel: 0, faceId: String(1 + (n % 6)), symbol: String(1 + (n % 6)), confidence: 1 }] });
  } catch (e) {
    const motions = motionStarts(board.events.slice(mark));
    boardTumbles += motions;
    if (motions > 1) twice++;
    voids++;
    store.recordThrow(session.id, { startedAt, endedAt: Date.now(), status: 'void', why: (e as Error).message.slice(0, 200), rolls: [] });
    // After a reset the board forgets its settings and its position: set them again.
    await recover();
  }
  if (n % 100 === 0) console.log(`  ${n} throws, ${voids} void, ${((performance.now() - t0) / n).toFixed(0)} ms a throw`);
}
const seconds = (performance.now() - t0) / 1000;
const last = driver.linkStats();
const stats = Object.fromEntries((Object.keys(earlier) as (keyof typeof earlier)[]).map((k) => [k, earlier[k] + last[k]])) as typeof earlier;
const counts = store.counts(session.id);
const verified = store.verify().ok;
store.endSession(session.id, Date.now(), 'finished');
await driver.close();
bus.dispose();
await board.stop();
store.close();

const lines = [
  `soak: ${done} throws (of ${throws} asked) in ${seconds.toFixed(0)} s (seed ${seed}; ${(BYTE_ERROR * 100).toFixed(0)} % of bytes garbled, ${(REPLY_DROP * 100).toFixed(0)} % of replies dropped, ${resets} board resets mid-tumble)`,
  `  stored: ${counts.throws} throws (${counts.ok} ok, ${counts.void} void), ${counts.countedRolls} counted rolls; chain verifies: ${verified}`,
  `  link: ${stats.commands} commands, ${stats.retransmits} retransmits, ${stats.crcFailures} CRC failures, ${stats.timeouts} timeouts, ${stats.reconnects} reconnects; ${recoveryRetries} retries of setting up after a void, ${manualReconnects} reconnects by the soak after the driver gave up`,
  `  faults: ${[...new Set(faults)].map((k) => `${k} ${faults.filter((f) => f === k).length}`).join(', ') || 'none'}`,
  `  tumbles counted by the board: ${boardTumbles} for ${counts.throws} throws stored (${counts.ok} ok + ${counts.void} void; a void tumble may or may not have moved)`,
  `  lost: ${done - counts.throws} (ok throws the board never tumbled: ${okWithoutMotion}); tumbled twice: ${twice}; void throws counted: ${counts.countedRolls - counts.ok}`,
];
console.log(lines.join('\n'));
