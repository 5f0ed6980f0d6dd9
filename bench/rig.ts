/**
 * Rig figures: the command round trip over the emulated board (the real firmware in simavr, paced to
 * real time, on a pty at 115200 baud) against the wire time of the same bytes and against a bare
 * serialport loop, and the host-side CPU per tumble (heartbeats, reads, parsing, bookkeeping; the
 * motion's own time is not CPU). Also how fast the simulated rig runs on simulated time.
 * Prints; asserts nothing. These machines are shared: compare figures from one run.
 */
import { readFileSync } from 'node:fs';
import { SerialPort } from 'serialport';
import { SimulatedClock } from '../src/clock.js';
import { EmulatedBoard } from '../src/rig/emulator/emulatedBoard.js';
import { crcField } from '../src/rig/protocol/crc16.js';
import { encodeCommand } from '../src/rig/protocol/encode.js';
import { LineSplitter } from '../src/rig/protocol/lineSplitter.js';
import { BAUD } from '../src/rig/protocol/pinMap.js';
import { SerialRigDriver } from '../src/rig/serial/serialDriver.js';
import { SimulatedRig } from '../src/rig/simulated/simulatedRig.js';
import { median, percentile, report } from './measure.js';

/** Milliseconds the bytes of `lines` take on the wire at the protocol's baud rate (8N1: 10 bits a byte). */
function wireMs(...lines: string[]): number {
  const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l, 'latin1'), 0);
  return (bytes * 10 * 1000) / BAUD;
}

/** CPU ms of the whole process (all threads: the libuv pool doing the port's reads and writes too). */
function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU ms of the main (JavaScript) thread, from Linux schedstat; NaN elsewhere. */
function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** Round trips of `ping` with the bare serialport package and the codec: the floor the driver is compared with. */
async function barePings(path: string, n: number): Promise<number[]> {
  const port = new SerialPort({ path, baudRate: BAUD, autoOpen: false });
  const splitter = new LineSplitter(400);
  let waiting: ((line: string) => void) | undefined;
  port.on('data', (chunk: Buffer) => {
    for (const { line } of splitter.push(chunk)) waiting?.(line);
  });
  const next = (match: (l: string) => boolean): Promise<string> =>
    new Promise((resolve) => {
      waiting = (l) => {
        if (match(l)) resolve(l);
      };
    });
  const banner = next((l) => l.startsWith('! boot'));
  await new Promise<void>((ok, fail) => port.open((e) => (e ? fail(e) : ok())));
  await banner;
  const out: number[] = [];
  for (let i = 1; i <= n; i++) {
    const reply = next((l) => l.startsWith(`${i} ok`));
    const t0 = performance.now();
    port.write(encodeCommand(i, 'ping'));
    await reply;
    out.push(performance.now() - t0);
  }
  await new Promise<void>((ok) => port.close(() => ok()));
  return out;
}

export async function runRigBench(): Promise<void> {
  let board: EmulatedBoard | undefined;
  let driver: SerialRigDriver | undefined;
  try {
    board = await EmulatedBoard.start();
    board.pressSwitch('home');
    const bare = (await barePings(board.path, 220)).slice(20);
    await new Promise((r) => setTimeout(r, 100)); // let the harness see the port close, so the next open resets it

    // No idle pings: the figures are the commands' own.
    driver = new SerialRigDriver({ path: board.path, idleHeartbeatMs: 0, reconnect: false });
    await driver.connect();
    for (let i = 0; i < 20; i++) await driver.ping();
    const trips: number[] = [];
    for (let i = 0; i < 200; i++) trips.push(await driver.ping());
    // A ping and its reply as they are on the wire at this point of the run (seq and board clock digits).
    const up = (await driver.status()).uptimeMs ?? 0;
    const seq = driver.linkStats().commands;
    const wire = wireMs(encodeCommand(seq, 'ping'), `${seq} ok t=${up}*${crcField('x')}\n`);
    const med = median(trips);

    const tumbles = 8;
    await driver.tumble();
    const mainCpu: number[] = [];
    const procCpu: number[] = [];
    const beyond: number[] = [];
    const commands0 = driver.linkStats().commands;
    for (let i = 0; i < tumbles; i++) {
      const [m0, p0, w0] = [mainThreadCpuMs(), processCpuMs(), performance.now()];
      const r = await driver.tumble();
      mainCpu.push(mainThreadCpuMs() - m0);
      procCpu.push(processCpuMs() - p0);
      beyond.push(performance.now() - w0 - r.durationMs);
    }
    const perTumble = (driver.linkStats().commands - commands0) / tumbles;
    const [m0, p0] = [mainThreadCpuMs(), processCpuMs()];
    await new Promise((r) => setTimeout(r, 1200));
    const idleMain = mainThreadCpuMs() - m0;
    const idleProc = processCpuMs() - p0;
    const stats = driver.linkStats();

    report('rig: serial driver on the emulated board (real firmware in simavr, pty at 115200 baud)', [
      ['ping round trip, median', `${med.toFixed(2)} ms`, `over ${trips.length}; p99 ${percentile(trips, 0.99).toFixed(2)} ms`],
      ['wire time of those bytes', `${wire.toFixed(2)} ms`, `${Math.round((wire * BAUD) / 10000)} bytes at ${BAUD} baud`],
      ['round trip / wire time', `${(med / wire).toFixed(2)}x`, '(target <= 1.5x)'],
      ['bare serialport loop, median', `${median(bare).toFixed(2)} ms`, `${(median(bare) / wire).toFixed(2)}x wire: the pty and emulator's share`],
      [
        'host CPU per tumble, main thread',
        `${median(mainCpu).toFixed(2)} ms`,
        `(target < 5 ms) median of ${tumbles}; ${perTumble.toFixed(1)} commands each (tumble and heartbeats); idle 1.2 s: ${idleMain.toFixed(2)} ms`,
      ],
      ['host CPU per tumble, whole process', `${median(procCpu).toFixed(2)} ms`, `with the libuv pool's port reads and writes; idle 1.2 s: ${idleProc.toFixed(2)} ms`],
      ['wall time per tumble beyond its motion', `${median(beyond).toFixed(1)} ms`, 'motion time as the board timed it'],
      ['link', `${stats.retransmits} retransmits`, `${stats.crcFailures} CRC failures, ${stats.timeouts} timeouts`],
    ]);
  } catch (e) {
    console.log(`\nrig: emulated-board figures skipped: ${(e as Error).message}`);
  } finally {
    await driver?.close();
    await board?.stop();
  }

  const clock = new SimulatedClock();
  const sim = new SimulatedRig({ clock, seed: 1 });
  await sim.connect();
  const n = 2000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await sim.tumble();
  const ms = performance.now() - t0;
  await sim.close();
  report('rig: simulated rig on a simulated clock', [
    ['tumbles', `${n}`, `${(clock.now() / 3600_000).toFixed(2)} simulated hours`],
    ['wall time per tumble', `${((ms / n) * 1000).toFixed(0)} us`, `${(n / (ms / 1000)).toFixed(0)} tumbles/s`],
  ]);
}
