/**
 * Every error the serial driver raises, worded in one place: each names the port, the command and its
 * seq, the likely cause and what to do.
 */
import { RigConfigError, RigConnectError, RigError, RigFaultError, RigSilentError, RigTimeoutError, type RigErrorContext } from '../errors.js';
import { errorByCode } from '../protocol/errorCodes.js';
import type { ErrReply } from '../protocol/messages.js';
import { BAUD, PROTOCOL_VERSION } from '../protocol/pinMap.js';
import { unfinishedMotion } from '../unfinishedMotion.js';
import type { PortHolder, PortHolders } from './portHolders.js';

export function serialCtx(port: string, command?: string, seq?: number): RigErrorContext {
  return { port, driver: 'serial', ...(command !== undefined ? { command } : {}), ...(seq !== undefined ? { seq } : {}) };
}

/** The firmware's description of an error code. */
export function errorText(code: number): string {
  return errorByCode(code)?.text ?? `error ${code}`;
}

/** What a port that opened but never answered showed while dicerig waited (see `noFirmwareError`). */
export interface SilentPort {
  /** From opening the port to giving up: the banner wait and every try of "identify". */
  readonly waitedMs: number;
  /** Lines that were not dicerig protocol (echoes left out). */
  readonly invalidLines: number;
  /** Lines dicerig sent that came back verbatim. */
  readonly echoes: number;
  /** Other programs with the port open; undefined where that cannot be looked up. */
  readonly holders: PortHolders | undefined;
}

const who = (h: PortHolder): string => `pid ${h.pid} (${h.command})`;

/**
 * A port that opened but never answered as a dicerig board, with the likeliest cause first: it echoes what it is
 * sent (a terminal, a loopback), another program has it open and takes the replies, or no dicerig firmware (or
 * another baud rate) on the board.
 */
export function noFirmwareError(path: string, seq: number, port: SilentPort, cause: Error): RigSilentError {
  const ctx = serialCtx(path, 'identify', seq);
  const waited = `${Math.round(port.waitedMs)} ms`;
  if (port.echoes > 0) {
    return new RigSilentError(
      `The port ${path} echoes what dicerig sends (${port.echoes} of its lines came back as they were sent): it is a terminal or a loopback, not a dicerig board. ` +
        'Name the rig\'s Arduino with --port ("dicerig rig list" shows the serial ports).',
      ctx,
      { cause },
    );
  }
  const holders = port.holders?.holders ?? [];
  if (holders.length > 0) {
    const named = holders.map(who).join(', ');
    return new RigSilentError(
      `No reply to "identify" from ${path} within ${waited}, and another program has the port open, which takes the board's lines before dicerig can read them: ` +
        `${named}. Close it (or stop it: kill ${holders.map((h) => h.pid).join(' ')}) and try again.`,
      { ...ctx, holders: named },
      { cause },
    );
  }
  const noise = port.invalidLines > 0 ? ` It sent ${port.invalidLines} line(s) that are not dicerig protocol (another firmware, or a different baud rate).` : '';
  const unseen =
    port.holders && port.holders.unseen > 0
      ? ` (Whether another program reads the port could not be seen for ${port.holders.unseen} processes of other users: "sudo fuser -v ${port.holders.device}" lists them.)`
      : '';
  return new RigSilentError(
    `No boot banner and no reply to "identify" from ${path} within ${waited}: no dicerig firmware on the board? ` +
      `Flash it with "make -C firmware upload PORT=${path}", or, if it runs stock StandardFirmata, use --rig firmata instead. ` +
      `Or the wrong baud rate: the firmware talks at ${BAUD} baud.${noise}${unseen}`,
    ctx,
    { cause },
  );
}

export function protocolError(path: string, proto: string | undefined, fw: string | undefined): RigConnectError {
  return new RigConnectError(
    `The board on ${path} runs firmware ${fw ?? 'of unknown version'} speaking protocol ${proto ?? '?'}, but this dicerig speaks protocol ${PROTOCOL_VERSION}: ` +
      `flash the firmware from this version with "make -C firmware upload PORT=${path}".`,
    serialCtx(path, 'identify'),
  );
}

export function closedWhileConnecting(path: string, cause: Error): RigConnectError {
  return new RigConnectError(`The port ${path} closed while connecting: the board was unplugged or reset by something else.`, serialCtx(path, 'identify'), { cause });
}

export function identifyRefused(path: string, reply: ErrReply): RigConnectError {
  return new RigConnectError(`The board on ${path} answered "identify" with ${reply.name}: ${errorText(reply.code)}.`, serialCtx(path, 'identify', reply.seq ?? undefined));
}

export function otherRigError(path: string, found: string, expected: string, seq?: number): RigConnectError {
  return new RigConnectError(`The board on ${path} is rig "${found}", not "${expected}".`, serialCtx(path, 'identify', seq));
}

export function configHashError(path: string, found: string, expected: string, seq?: number): RigConnectError {
  return new RigConnectError(
    `The rig on ${path} has configuration hash ${found}, but ${expected} was expected: its settings changed ` +
      `(dicerig rig check shows them); re-calibrate or restore the settings before continuing.`,
    serialCtx(path, 'identify', seq),
  );
}

/** Settings the firmware would refuse (see `protocol/configCheck.ts`): none was sent. */
export function configRefusedError(path: string, settings: Readonly<Record<string, string | number>>, problems: readonly string[]): RigConfigError {
  const [first] = Object.entries(settings).filter(([k, v]) => problems.some((p) => p.startsWith(`${k}=${v} `) || p.startsWith(`"${k}"`)));
  return new RigConfigError(
    `Not sent to the board on ${path}: ${problems.join('; ')}. Nothing was changed.`,
    { ...serialCtx(path, 'config'), ...(first ? { key: first[0], value: String(first[1]) } : {}) },
  );
}

/** A command cut by a lost link where it cannot wait for a reconnect (the handshake). */
export function lostError(path: string, command: string, seq?: number): RigFaultError {
  return new RigFaultError(`The link to the rig on ${path} was lost during "${command}".`, 'disconnected', false, serialCtx(path, command, seq));
}

export function closedError(path: string, command: string, seq?: number): RigError {
  return new RigError(`The rig driver for ${path} is closed.`, serialCtx(path, command, seq));
}

export function refusedError(path: string, verb: string, reply: ErrReply): RigFaultError {
  return new RigFaultError(
    `The board on ${path} refused "${verb}" (seq ${reply.seq}): ${reply.name} (${errorText(reply.code)}).`,
    'refused',
    false,
    serialCtx(path, verb, reply.seq ?? undefined),
    reply.code,
  );
}

export function noReplyError(path: string, verb: string, seq: number, attempts: number): RigTimeoutError {
  return new RigTimeoutError(
    `No reply from the rig on ${path} to "${verb}" (seq ${seq}) after ${attempts} attempts: ` +
      `the link is dead or the board is hung (unplug and replug it, or check the cable).`,
    serialCtx(path, verb, seq),
  );
}

// ---- motions ---------------------------------------------------------------------------------------

export function motionRefusedError(path: string, verb: string, seq: number, code: number, name?: string): RigFaultError {
  return new RigFaultError(
    `The board on ${path} refused the ${verb} (seq ${seq}): ${name ?? errorByCode(code)?.name ?? code} (${errorText(code)}).`,
    'refused',
    false,
    serialCtx(path, verb, seq),
    code,
  );
}

export const motionStoppedMessage = (path: string, verb: string, seq: number, code: number): string =>
  `The ${verb} (seq ${seq}) on ${path} was stopped: ${errorText(code)}. ${unfinishedMotion(verb)}`;

export const motionOverdueMessage = (path: string, verb: string, seq: number, limitMs: number): string =>
  `The ${verb} (seq ${seq}) on ${path} did not finish within ${limitMs} ms, so dicerig stopped it. ${unfinishedMotion(verb)}`;

export const motionLostMessage = (path: string, verb: string, seq: number, why: string): string =>
  `The link to the rig on ${path} was lost during the ${verb} (seq ${seq}): ${why}. ${unfinishedMotion(verb)}`;

export const motionResetMessage = (path: string, verb: string, seq: number, why: string): string =>
  `The board on ${path} reset during the ${verb} (seq ${seq}): ${why}. ${unfinishedMotion(verb)}`;

export const motionClosedMessage = (verb: string, seq: number): string => `The rig driver was closed during the ${verb} (seq ${seq}). ${unfinishedMotion(verb)}`;

export function motionUnansweredError(path: string, verb: string, seq: number, resends: number): RigTimeoutError {
  return new RigTimeoutError(`The board on ${path} never answered the ${verb} (seq ${seq}) after ${resends} resends. ${unfinishedMotion(verb)}`, serialCtx(path, verb, seq));
}

/** A fault the board pushed for a motion the driver no longer waits for. */
export const pushedFaultMessage = (seq: number, code: number): string => `The board stopped a motion (seq ${seq}): ${errorText(code)}.`;
