/**
 * Rig figures: the command round trip over the emulated board (the real firmware in simavr, paced to
 * real time, on a pty at 115200 baud) against the wire time of the same bytes and against bare ping
 * loops (the driver's port link alone, and serialport's stream), and the host-side CPU per tumble
 * (heartbeats, reads, parsing, bookkeeping; the motion's own time is not CPU). Also how fast the
 * simulated rig runs on simulated time.
 * Prints; asserts nothing. These machines are shared: compare figures from one run.
 *
 * The emulated board runs from a worker thread: its harness is a child process, but `EmulatedBoard`
 * reads the harness's event lines (servo pulses, pins) in the thread that started it, and on the main
 * thread that reading was counted as host CPU per tumble, though a real board sends no such stream.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { SerialPort } from 'serialport';
import { SimulatedClock } from '../src/core/clock.js';
import { EmulatedBoard } from '../src/rig/emulator/emulatedBoard.js';
import { crcField } from '../src/rig/protocol/crc16.js';
import { encodeCommand } from '../src/rig/protocol/encode.js';
import { LineSplitter } from '../src/rig/protocol/lineSplitter.js';
import { BAUD } from '../src/rig/protocol/pinMap.js';
import { nextSeq } from '../src/rig/protocol/sequence.js';
import { SerialRigDriver } from '../src/rig/serial/serialDriver.js';
import { openSerialPortLink, type LinkOpener } from '../src/rig/serial/serialLink.js';
import { SimulatedRig } from '../src/rig/simulated/simulatedRig.js';
import { median, percentile, report } from './measure.js';

/** Milliseconds the bytes of `lines` take on the wire at the protocol's baud rate (8N1: 10 bits a byte). */
function wireMs(...lines: string[]): number {
  const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l, 'latin1'), 0);
  return (bytes * 10 * 1000) / BAUD;
}

/** CPU ms of the whole process (all threads: V8's helpers, the libuv pool, and the emulated board's worker). */
function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU ms of one thread of this process, from Linux schedstat; NaN elsewhere. */
function threadCpuMs(tid: number): number {
  try {
    return Number(readFileSync(`/proc/${process.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** CPU ms of the main (JavaScript) thread. */
const mainThreadCpuMs = (): number => threadCpuMs(process.pid);

/** The calling thread's Linux thread id; NaN elsewhere. */
function currentThreadId(): number {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').at(-1));
  } catch {
    return Number.NaN;
  }
}

const BOARD_WORKER = 'dicerig-bench-emulated-board';

type BoardMessage = { kind: 'ready'; path: string; tid: number } | { kind: 'failed'; message: string };

/** The worker side: starts the emulated board (its home switch closed, a rig at rest) and stops it when told. */
async function serveBoard(): Promise<void> {
  const port = parentPort;
  if (!port) return;
  try {
    const board = await EmulatedBoard.start();
    board.pressSwitch('home');
    port.once('message', () => void board.stop().finally(() => port.close()));
    port.postMessage({ kind: 'ready', path: board.path, tid: currentThreadId() } satisfies BoardMessage);
  } catch (e) {
    port.postMessage({ kind: 'failed', message: e instanceof Error ? e.message : String(e) } satisfies BoardMessage);
    port.close();
  }
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === BOARD_WORKER) await serveBoard();

/** The emulated board, started from a worker thread (this module) so its event stream is not main-thread CPU. */
class OffThreadBoard {
  private constructor(
    private readonly worker: Worker,
    readonly path: string,
    private readonly tid: number,
  ) {}

  static async start(): Promise<OffThreadBoard> {
    const worker = new Worker(new URL(import.meta.url), { workerData: { role: BOARD_WORKER } });
    const msg = await new Promise<BoardMessage>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the emulated-board worker exited (${code}) before it was ready`)));
    });
    if (msg.kind === 'failed') {
      await worker.terminate();
      throw new Error(msg.message);
    }
    return new OffThreadBoard(worker, msg.path, msg.tid);
  }

  /** CPU ms of the worker thread: the harness's event lines, parsed. */
  cpuMs(): number {
    return threadCpuMs(this.tid);
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage('stop');
    await exited;
  }
}

/** serialport's own stream as a SerialLink, for comparison with the link the driver uses. */
const openStreamLink: LinkOpener = async (path) => {
  const port = new SerialPort({ path, baudRate: BAUD, autoOpen: false });
  await new Promise<void>((ok, fail) => port.open((e) => (e ? fail(e) : ok())));
  return {
    path,
    write: (text) => void port.write(text),
    onData: (listener) => void port.on('data', listener),
    onClose: () => undefined,
    close: () => new Promise<void>((ok) => port.close(() => ok())),
  };
};

/**
 * Round trips of `ping` over a bare link and the codec, without the driver: the floor the driver is compared with;
 * and the main thread's CPU per ping after the first `warm`, whose round trips are dropped too.
 */
async function barePings(open: LinkOpener, path: string, n: number, warm: number): Promise<{ trips: number[]; cpuMs: number }> {
  const splitter = new LineSplitter(400);
  let waiting: ((line: string) => void) | undefined;
  const next = (match: (l: string) => boolean): Promise<string> =>
    new Promise((resolve) => {
      waiting = (l) => {
        if (match(l)) resolve(l);
      };
    });
  const banner = next((l) => l.startsWith('! boot'));
  const link = await open(path);
  link.onData((chunk: Buffer) => {
    for (const { line } of splitter.push(chunk)) waiting?.(line);
  });
  await banner;
  const out: number[] = [];
  let cpu0 = 0;
  for (let i = 1; i <= n; i++) {
    if (i === warm + 1) cpu0 = mainThreadCpuMs();
    const reply = next((l) => l.startsWith(`${i} ok`));
    const t0 = performance.now();
    link.write(encodeCommand(i, 'ping'));
    await reply;
    out.push(performance.now() - t0);
  }
  const cpuMs = (mainThreadCpuMs() - cpu0) / (n - warm);
  await link.close();
  // Let the harness see the port close, so the next open resets the board.
  await new Promise((r) => setTimeout(r, 100));
  return { trips: out.slice(warm), cpuMs };
}

/**
 * The driver's tumbles again over a bare port link with the least JS: the tumble line, a heartbeat whenever the host
 * has been silent for 200 ms (a status first and once the reply is overdue, pings otherwise) and a light every third
 * tumble, as the driver sends them; no retries, no checks. What any host pays on this board and machine: a wake-up
 * for each piece the replies come in and for each heartbeat. Main-thread CPU per tumble, and commands per tumble.
 */
async function bareTumbles(path: string, n: number, motionMs: number): Promise<{ cpuMs: number[]; commands: number }> {
  const splitter = new LineSplitter(400);
  let onLine: (line: string) => void = () => undefined;
  const until = (match: (l: string) => boolean): Promise<string> =>
    new Promise((resolve) => {
      onLine = (l) => {
        if (match(l)) resolve(l);
      };
    });
  const banner = until((l) => l.startsWith('! boot'));
  const link = await openSerialPortLink(path);
  link.onData((chunk) => {
    for (const { line } of splitter.push(chunk)) onLine(line);
  });
  await banner;
  let seq = 0;
  const send = (verb: string): number => {
    seq = nextSeq(seq);
    link.write(encodeCommand(seq, verb));
    return seq;
  };
  const exchange = (verb: string): Promise<string> => {
    const s = send(verb);
    return until((l) => l.startsWith(`${s} `));
  };
  await exchange('identify'); // the board runs no motion before
  const cpuMs: number[] = [];
  const seq0 = seq;
  for (let i = 0; i < n; i++) {
    const c0 = mainThreadCpuMs();
    if (i % 3 === 0) await exchange('light');
    const sentAt = performance.now();
    const done = exchange('tumble');
    let first = true;
    const beat = (): void => {
      send(first || performance.now() - sentAt > motionMs + 400 ? 'status' : 'ping');
      first = false;
      timer = setTimeout(beat, 200);
    };
    let timer = setTimeout(beat, 200);
    await done;
    clearTimeout(timer);
    cpuMs.push(mainThreadCpuMs() - c0);
  }
  const commands = (seq - seq0) / n;
  await link.close();
  await new Promise((r) => setTimeout(r, 100));
  return { cpuMs, commands };
}

export async function runRigBench(): Promise<void> {
  let board: OffThreadBoard | undefined;
  let driver: SerialRigDriver | undefined;
  try {
    board = await OffThreadBoard.start();
    const bareRun = await barePings(openSerialPortLink, board.path, 220, 20);
    const bare = bareRun.trips;
    const stream = (await barePings(openStreamLink, board.path, 220, 20)).trips;

    // No idle pings: the figures are the commands' own.
    driver = new SerialRigDriver({ path: board.path, idleHeartbeatMs: 0, reconnect: false });
    await driver.connect();
    for (let i = 0; i < 20; i++) await driver.ping();
    const trips: number[] = [];
    const pingCpu0 = mainThreadCpuMs();
    for (let i = 0; i < 200; i++) trips.push(await driver.ping());
    const pingCpuMs = (mainThreadCpuMs() - pingCpu0) / trips.length;
    // A ping and its reply as they are on the wire at this point of the run (seq and board clock digits).
    const up = (await driver.status()).uptimeMs ?? 0;
    const seq = driver.linkStats().commands;
    const wire = wireMs(encodeCommand(seq, 'ping'), `${seq} ok t=${up}*${crcField('x')}\n`);
    const med = median(trips);

    const tumbles = 8;
    await driver.tumble();
    const mainCpu: number[] = [];
    const procCpu: number[] = [];
    const boardCpu: number[] = [];
    const beyond: number[] = [];
    const durations: number[] = [];
    const commands0 = driver.linkStats().commands;
    for (let i = 0; i < tumbles; i++) {
      const [m0, p0, b0, w0] = [mainThreadCpuMs(), processCpuMs(), board.cpuMs(), performance.now()];
      const r = await driver.tumble();
      mainCpu.push(mainThreadCpuMs() - m0);
      const b = board.cpuMs() - b0;
      procCpu.push(processCpuMs() - p0 - b);
      boardCpu.push(b);
      beyond.push(performance.now() - w0 - r.durationMs);
      durations.push(r.durationMs);
    }
    const perTumble = (driver.linkStats().commands - commands0) / tumbles;
    const [m0, p0, b0] = [mainThreadCpuMs(), processCpuMs(), board.cpuMs()];
    await new Promise((r) => setTimeout(r, 1200));
    const idleMain = mainThreadCpuMs() - m0;
    const idleProc = processCpuMs() - p0 - (board.cpuMs() - b0);
    const stats = driver.linkStats();
    const target = 5;
    await driver.close();
    driver = undefined;
    await new Promise((r) => setTimeout(r, 100)); // the harness sees the port close: the next open resets the board
    const floor = await bareTumbles(board.path, tumbles, median(durations));

    report('rig: serial driver on the emulated board (real firmware in simavr, pty at 115200 baud)', [
      ['ping round trip, median', `${med.toFixed(2)} ms`, `over ${trips.length}; p99 ${percentile(trips, 0.99).toFixed(2)} ms`],
      ['wire time of those bytes', `${wire.toFixed(2)} ms`, `${Math.round((wire * BAUD) / 10000)} bytes at ${BAUD} baud`],
      ['round trip / wire time', `${(med / wire).toFixed(2)}x`, '(target <= 1.5x)'],
      ['bare port link loop, median', `${median(bare).toFixed(2)} ms`, `${(median(bare) / wire).toFixed(2)}x wire: the pty and emulator's share`],
      ["serialport's stream instead, median", `${median(stream).toFixed(2)} ms`, `${(median(stream) / wire).toFixed(2)}x wire: what the driver's own link saves`],
      [
        'host CPU per ping, main thread',
        `${(pingCpuMs * 1000).toFixed(0)} us`,
        `bare port link loop ${(bareRun.cpuMs * 1000).toFixed(0)} us: the driver's own share ${((pingCpuMs - bareRun.cpuMs) * 1000).toFixed(0)} us a command`,
      ],
      [
        'host CPU per tumble, main thread',
        `${median(mainCpu).toFixed(2)} ms`,
        `(target < ${target} ms) ${(median(mainCpu) / target).toFixed(2)}x the target; median of ${tumbles}; ` +
          `${perTumble.toFixed(1)} commands each (tumble and heartbeats); idle 1.2 s: ${idleMain.toFixed(2)} ms`,
      ],
      [
        'the same tumbles over a bare port link',
        `${median(floor.cpuMs).toFixed(2)} ms`,
        `main thread, ${floor.commands.toFixed(1)} commands each: what any host pays here (a wake-up per reply piece and ` +
          `heartbeat); the driver's own share ${(median(mainCpu) - median(floor.cpuMs)).toFixed(2)} ms`,
      ],
      [
        'host CPU per tumble, whole process',
        `${median(procCpu).toFixed(2)} ms`,
        `every thread but the emulated board's (V8 helpers, any libuv pool work); idle 1.2 s: ${idleProc.toFixed(2)} ms`,
      ],
      ["emulated board's event stream", `${median(boardCpu).toFixed(2)} ms`, 'per tumble, on its worker thread: test instrumentation, not host cost'],
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
