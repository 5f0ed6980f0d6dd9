// Fuzzing both parsers on the real wire: random bytes thrown at the host driver while it works, and
// garbage lines thrown at the firmware in the emulator. Neither may crash, move the motor, or lose
// track of its commands; the firmware answers every garbage line with exactly one error reply.
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmulatedBoard, type BoardEvent } from '../../src/rig/emulator/emulatedBoard.js';
import type { BoardLine } from '../../src/rig/protocol/messages.js';
import { SerialRigDriver } from '../../src/rig/serial/serialDriver.js';
import { BoardClient } from './support/boardClient.js';
import { buildFirmware } from './support/build.js';
import { FaultyLinkBus } from './support/faultyLink.js';
import { patience } from './support/patience.js';

let board: EmulatedBoard;
let client: BoardClient | undefined;
let driver: SerialRigDriver | undefined;
let bus: FaultyLinkBus | undefined;

beforeAll(async () => {
  buildFirmware();
  board = await EmulatedBoard.start();
  board.pressSwitch('home');
});

afterAll(async () => {
  await board?.stop();
});

afterEach(async () => {
  await driver?.close();
  await client?.close();
  bus?.dispose();
  driver = client = bus = undefined;
  await board.waitFor((e) => e.kind === 'client' && e.count === 0, 2000, board.events.length - 1).catch(() => undefined);
});

const motionStarts = (events: readonly BoardEvent[]): number => events.filter((e) => e.kind === 'pin' && e.name === 'D13' && e.value === 1).length;
const servoMoves = (events: readonly BoardEvent[]): number => events.filter((e) => e.kind === 'servo').length;

describe('the firmware parser, fed garbage lines in the emulator', () => {
  it('answers each garbage line with exactly one error reply, never ok, and never moves', async () => {
    // Lines of any bytes but the line ends, 1..150 long (over 96 is too long for the board).
    const lines = fc.sample(
      fc.uint8Array({ minLength: 1, maxLength: 150 }).map((b) => Buffer.from(b.map((x) => (x === 10 || x === 13 ? 32 : x))).toString('latin1')),
      { seed: 20261122, numRuns: 80 },
    );
    const opened = await BoardClient.open(board.path);
    client = opened.client;
    const mark = board.events.length;
    const since = client.lines.length;
    const isReply = (l: BoardLine): boolean => l.kind === 'ok' || l.kind === 'err';
    for (const [i, line] of lines.entries()) {
      const before = client.lines.length;
      client.write(`${line}\n`);
      const reply = await client.waitLine(isReply, patience(2000), before);
      expect(reply.kind, `garbage line ${i} ${JSON.stringify(line)}`).toBe('err');
    }
    await new Promise((r) => setTimeout(r, 150));
    const replies = client.lines.slice(since).filter(isReply);
    expect(replies).toHaveLength(lines.length);
    expect(replies.every((r) => r.kind === 'err')).toBe(true);
    expect(await client.request('ping')).toMatchObject({ kind: 'ok' }); // still talking
    expect(motionStarts(board.events.slice(mark))).toBe(0);
    expect(servoMoves(board.events.slice(mark))).toBe(0);
  });
});

describe('the host driver, fed random bytes between its replies', () => {
  it('keeps every command right (retransmitting where noise hit a reply) and tumbles exactly once', async () => {
    const noise = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 120 }), { seed: 777, numRuns: 40 });
    bus = new FaultyLinkBus(board.path);
    driver = new SerialRigDriver({ path: '/virtual/ttyACM0', openLink: bus.open, listPorts: bus.list, byIdDir: '/nonexistent-by-id' });
    await driver.connect();
    for (const [i, bytes] of noise.entries()) {
      bus.injectFromBoard(bytes);
      const level = (i * 37) % 256;
      expect(await driver.setLight(level)).toBe(level);
      if (i % 4 === 0) expect((await driver.status()).light).toBe(level);
    }
    const mark = board.events.length;
    bus.injectFromBoard(Buffer.from('\x00\xff garbage *1234\n! boot fw=9 proto=9\n', 'latin1'));
    await driver.tumble();
    await new Promise((r) => setTimeout(r, 100));
    expect(motionStarts(board.events.slice(mark))).toBe(1);
    expect(driver.linkStats().crcFailures).toBeGreaterThan(0);
  });
});
