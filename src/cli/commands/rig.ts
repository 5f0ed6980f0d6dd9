import type { Command } from 'commander';
import { SimulatedClock } from '../../core/clock.js';
import type { LinkStats, RigDriver, RigFault, RigIdentity } from '../../rig/driver.js';
import { rigFactories, type RigFactoryOptions } from '../../rig/factory.js';
import { FIRMATA_SETTING_RANGES, firmataOptionsFromKeys, parseFirmataSettingWords, type FirmataSettingKeys } from '../../rig/firmata/firmataSettings.js';
import { roundTripSummary } from '../../rig/linkStats.js';
import { listSerialPorts, type SerialPortInfo } from '../../rig/serial/portLocator.js';
import { InputError } from '../../core/errors.js';
import { renderTable } from '../../core/textTable.js';
import type { CliIo } from '../io.js';
import { toJson } from '../options.js';
import { rigCheckFailure } from '../rigCheckAdvice.js';

/** Registers `dicerig rig list` and `dicerig rig check`. */
export function registerRigCommand(program: Command, io: CliIo): void {
  const rig = program.command('rig').summary('find and check the dice rig (serial ports, connection, one tumble)');
  rig.description('Commands for the tumbling rig: list the serial ports a board could be on, and check a rig end to end.');

  rig
    .command('list')
    .summary('list serial ports with their USB vendor/product ids and serial numbers')
    .description('Lists the serial ports of this machine, Arduino-like USB ports first, with USB ids, serial numbers and /dev/serial/by-id links.')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const ports = await listSerialPorts();
      if (opts.json) {
        io.out(`${toJson({ ports: ports.map((p) => ({ ...p, likelyRig: p.board !== undefined })) })}\n`);
        return;
      }
      io.out(portsText(ports));
    });

  rig
    .command('check')
    .summary('connect, identify, home, tumble once, set the lights, and print link statistics')
    .description(
      'Checks a rig end to end: connects and identifies it, homes, tumbles once, sets the lights and reads them back, ' +
        'and prints the link statistics (round trip, retransmits, CRC failures). Exit status 1 when a step fails. ' +
        `Rigs: ${rigFactories
          .list()
          .map((f) => `"${f.name}" (${f.description})`)
          .join('; ')}.`,
    )
    .option('--rig <name>', `which rig driver: ${rigFactories.names().join(', ')}`, 'serial')
    .option('--port <path>', 'serial port of a real board (default: $DICERIG_PORT, else the one Arduino plugged in)')
    .option(
      '--set <key=value>',
      `a Firmata rig's setting, as rig.firmata in the session config (repeat it): ${FIRMATA_KEYS.join(', ')}`,
      (word: string, all: string[]) => [...all, word],
      [] as string[],
    )
    .option('--json', 'print JSON')
    .action(async (opts: { rig: string; port?: string; set: string[]; json?: boolean }) => {
      if (opts.port !== undefined && !rigTakesPort(opts.rig)) {
        throw new InputError(`--port is for a board on a serial port; the "${opts.rig}" rig does not use one (it ${opts.rig === 'sim' ? 'is simulated in dicerig' : 'starts its own emulated board'}). Leave --port out, or use --rig serial or --rig firmata.`);
      }
      const firmata = firmataSettingsFor(opts.rig, opts.set);
      const report = await probeRig(opts.rig, opts.port ?? process.env['DICERIG_PORT'], firmata);
      io.out(opts.json ? `${toJson(report)}\n` : checkText(report));
      if (!report.ok) io.setExitCode(1);
    });
}

/** The rigs that open a real board's port; the others make their own (emulated) or none (sim). */
const rigTakesPort = (rigName: string): boolean => rigName === 'serial' || rigName === 'firmata';

const FIRMATA_KEYS = [...Object.keys(FIRMATA_SETTING_RANGES), 'rig', 'baud'];

/** `--set` words as a Firmata rig's settings, checked before any board is opened; refused for rigs that keep their own. */
function firmataSettingsFor(rigName: string, words: readonly string[]): FirmataSettingKeys | undefined {
  if (words.length === 0) return undefined;
  if (!/firmata/.test(rigName)) {
    throw new InputError(
      rigName === 'sim'
        ? '--set applies to the firmata and emulated-firmata rigs; the simulated rig has no board and no settings to set.'
        : `--set applies to the firmata and emulated-firmata rigs; the "${rigName}" rig's settings live in its board ` +
            '(dicerig firmware: npx tsx scripts/hardware/rigConfig.ts --port PATH key=value).',
    );
  }
  // A key given twice is a typo more likely than a wish: which one was meant is not guessed.
  const given = words.map((w) => w.split('=')[0]?.trim() ?? '');
  const twice = given.find((k, i) => k !== '' && given.indexOf(k) !== i);
  if (twice !== undefined) throw new InputError(`--set ${twice}= is given twice; give each setting once.`);
  const keys = parseFirmataSettingWords(words);
  firmataOptionsFromKeys(keys); // throws naming the key when a value is out of range
  return keys;
}

function portsText(ports: readonly SerialPortInfo[]): string {
  if (ports.length === 0) {
    return 'No serial ports found. Plug in the rig\'s Arduino Uno (running the dicerig firmware), or use "dicerig rig check --rig emulated" to try without one.\n';
  }
  const rows = ports.map((p) => [
    p.path,
    p.vendorId ? `${p.vendorId}:${p.productId ?? '????'}` : '-',
    p.serialNumber ?? '-',
    p.board ?? p.manufacturer ?? '-',
    p.byId ?? '-',
  ]);
  const likely = ports.filter((p) => p.board !== undefined).length;
  const hint =
    likely > 0
      ? `${likely} port(s) look like an Arduino; "dicerig rig check --port PATH" checks one.\n`
      : 'None of these looks like a USB Arduino. Plug in the rig\'s Uno, or try "dicerig rig check --rig emulated".\n';
  return renderTable(['port', 'usb id', 'serial number', 'board', 'by-id link'], rows, 5) + hint;
}

/** One step of `rig check`. */
export interface CheckStep {
  readonly step: 'connect' | 'home' | 'tumble' | 'lights' | 'status';
  readonly ok: boolean;
  readonly ms: number;
  readonly detail: string;
  readonly data?: unknown;
}

export interface CheckReport {
  readonly rig: string;
  readonly ok: boolean;
  readonly simulated: boolean | undefined;
  readonly identity?: RigIdentity;
  readonly steps: readonly CheckStep[];
  readonly faults: readonly RigFault[];
  readonly link?: LinkStats & { readonly roundTrip: ReturnType<typeof roundTripSummary> };
  readonly error?: string;
}

/** Runs the check steps in order, stopping at the first failure; always closes the driver. */
async function probeRig(rigName: string, port: string | undefined, firmata: FirmataSettingKeys | undefined): Promise<CheckReport> {
  const factory = rigFactories.get(rigName);
  // The simulated rig runs on simulated time: its check takes no real time and reports the same durations.
  const options: RigFactoryOptions = {
    ...(port !== undefined ? { port } : {}),
    ...(rigName === 'sim' ? { clock: new SimulatedClock() } : {}),
    ...(firmata ? { firmata } : {}),
  };
  const steps: CheckStep[] = [];
  const faults: RigFault[] = [];
  let driver: RigDriver | undefined;
  let identity: RigIdentity | undefined;
  let error: string | undefined;

  const step = async (name: CheckStep['step'], run: () => Promise<{ detail: string; data?: unknown }>): Promise<boolean> => {
    const t0 = performance.now();
    try {
      const r = await run();
      steps.push({ step: name, ok: true, ms: performance.now() - t0, detail: r.detail, ...(r.data !== undefined ? { data: r.data } : {}) });
      return true;
    } catch (e) {
      error = rigCheckFailure(e, /firmata/.test(rigName));
      steps.push({ step: name, ok: false, ms: performance.now() - t0, detail: error });
      return false;
    }
  };

  try {
    const ok =
      (await step('connect', async () => {
        driver = await factory.create(options);
        driver.onFault((f) => faults.push(f));
        identity = await driver.connect();
        return {
          detail: `rig ${identity.rigId}, firmware ${identity.firmware}, protocol ${identity.protocol}, config ${identity.configHash}, ${identity.tumbler} tumbler${identity.port ? `, port ${identity.port}` : ''}`,
          data: identity,
        };
      })) &&
      (await step('home', async () => {
        const r = await (driver as RigDriver).home();
        return { detail: `home in ${r.durationMs} ms`, data: r };
      })) &&
      (await step('tumble', async () => {
        const r = await (driver as RigDriver).tumble();
        return { detail: `${r.durationMs} ms motion${r.peakMilliamps !== undefined ? `, peak ${r.peakMilliamps} mA` : ''}`, data: r };
      })) &&
      (await step('lights', async () => {
        const d = driver as RigDriver;
        const read: { set: number; reply: number; status: number }[] = [];
        for (const level of [255, 128, 0]) {
          const reply = await d.setLight(level);
          const status = (await d.status()).light;
          read.push({ set: level, reply, status });
          if (reply !== level || status !== level) throw new Error(`the light was set to ${level} but the rig reports ${reply} (status ${status})`);
        }
        return { detail: read.map((r) => `${r.set} -> ${r.status}`).join(', '), data: read };
      })) &&
      (await step('status', async () => {
        const s = await (driver as RigDriver).status();
        const parts = [
          s.state,
          `light ${s.light}`,
          `limit ${s.limitPressed ? 'closed' : 'open'}`,
          `home ${s.homePressed ? 'closed' : 'open'}`,
          ...(s.motorMilliamps !== undefined ? [`motor ${s.motorMilliamps} mA`] : []),
          ...(s.uptimeMs !== undefined ? [`up ${(s.uptimeMs / 1000).toFixed(1)} s`] : []),
        ];
        return { detail: parts.join(', '), data: s };
      }));
    const d = driver as RigDriver | undefined;
    const stats = d?.linkStats();
    return {
      rig: rigName,
      ok,
      simulated: d?.isSimulated,
      ...(identity ? { identity } : {}),
      steps,
      faults,
      ...(stats ? { link: { ...stats, roundTrip: roundTripSummary(stats) } } : {}),
      ...(error !== undefined ? { error } : {}),
    };
  } finally {
    await (driver as RigDriver | undefined)?.close();
  }
}

function checkText(r: CheckReport): string {
  const lines = [`rig check: ${r.rig}`];
  for (const s of r.steps) lines.push(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.step.padEnd(7)}  ${s.detail}  (${s.ms.toFixed(0)} ms)`);
  if (r.link) {
    const rt = r.link.roundTrip;
    const trip = rt.count > 0 ? `round trip median ${rt.medianMs.toFixed(1)} ms, p99 ${rt.p99Ms.toFixed(1)} ms over ${rt.count}` : 'no round trips measured';
    // Firmata has no sequence numbers or CRC: its retransmit and CRC counts would always read 0 and mean nothing.
    const checked = r.identity?.driver === 'firmata' || /firmata/.test(r.rig) ? '' : `${r.link.retransmits} retransmits, ${r.link.crcFailures} CRC failures, `;
    lines.push(`link: ${r.link.commands} commands, ${trip}; ${checked}${r.link.timeouts} timeouts, ${r.link.reconnects} reconnects`);
  }
  for (const f of r.faults) lines.push(`fault: ${f.kind}: ${f.message}`);
  // The host times a Firmata tumble and drives only the servo pin: a stepper build passes the check while nothing moves.
  if (r.identity?.driver === 'firmata') lines.push('note: the Firmata driver drives the servo build only (servo on D9); with a stepper nothing moves, whatever the tumble step says.');
  if (r.simulated) lines.push('note: this rig is simulated; its rolls are never counted as fairness data.');
  lines.push(r.ok ? 'result: OK' : `result: FAILED at ${r.steps.find((s) => !s.ok)?.step ?? 'start'}`);
  return `${lines.join('\n')}\n`;
}
