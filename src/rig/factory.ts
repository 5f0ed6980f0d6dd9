import type { Clock } from '../core/clock.js';
import type { RandomSource } from '../stats/random.js';
import type { RigDriver } from './driver.js';
import { EmulatedBoard } from './emulator/emulatedBoard.js';
import { RigConnectError, RigError } from './errors.js';
import { emulatedFirmataFactory, firmataFactory } from './firmata/firmataFactory.js';
import { likelyRigPorts, listSerialPorts, type PortLister } from './serial/portLocator.js';
import { SerialRigDriver, type SerialDriverOptions } from './serial/serialDriver.js';
import { SimulatedRig, type SimulatedFaults } from './simulated/simulatedRig.js';
import type { SimulatedTiming } from './simulated/timingModel.js';

/** What any rig factory may be given; each uses what applies to it. */
export interface RigFactoryOptions {
  /** Serial port of a real board (`serial`, `firmata`). Without it, the factory looks for one. */
  readonly port?: string;
  /** Clock for drivers that run on one (the simulated rig). */
  readonly clock?: Clock;
  readonly random?: RandomSource;
  readonly seed?: number;
  /** Simulated rig only. */
  readonly timing?: Partial<SimulatedTiming>;
  readonly faults?: Partial<SimulatedFaults>;
  /** Serial driver settings (timeouts, heartbeat...), for `serial` and `emulated`. */
  readonly serial?: Omit<SerialDriverOptions, 'path'>;
  /** How ports are listed when none is given (tests inject one). */
  readonly listPorts?: PortLister;
  /** Progress for the user (e.g. "starting the emulated board"). */
  readonly log?: (message: string) => void;
}

/** Makes one kind of rig driver. `create` does not connect: call `driver.connect()`. */
export interface RigFactory {
  readonly name: string;
  /** One line for `--help` and error messages. */
  readonly description: string;
  create(options: RigFactoryOptions): Promise<RigDriver>;
}

/**
 * The named rig factories. Drivers add themselves with `register` (the Firmata
 * driver adds `firmata` and `emulated-firmata`); config and the CLI choose one by name.
 */
export class RigFactoryRegistry {
  private readonly factories = new Map<string, RigFactory>();

  register(factory: RigFactory): this {
    if (!/^[a-z][a-z0-9-]*$/.test(factory.name)) throw new RangeError(`rig factory name "${factory.name}" must be lower-case letters, digits and dashes`);
    this.factories.set(factory.name, factory);
    return this;
  }

  has(name: string): boolean {
    return this.factories.has(name);
  }

  get(name: string): RigFactory {
    const f = this.factories.get(name);
    if (!f) throw new RigError(`There is no rig driver called "${name}"; choose one of: ${this.names().join(', ')}.`, { driver: name });
    return f;
  }

  names(): string[] {
    return [...this.factories.keys()];
  }

  list(): RigFactory[] {
    return [...this.factories.values()];
  }

  /** Creates (does not connect) a driver by factory name. */
  create(name: string, options: RigFactoryOptions = {}): Promise<RigDriver> {
    return this.get(name).create(options);
  }
}

/** What to tell a user who has no board plugged in. */
export const PLUG_IN_HINT =
  'Plug in an Arduino Uno running the dicerig firmware (flash it with "make -C firmware upload PORT=/dev/ttyACM0") and name its port with --port, ' +
  'or try without hardware: --rig emulated runs the real firmware in an emulator, --rig sim a simulated rig.';

/** The port of the one Arduino-like board plugged in; a clear error for none or several. */
export async function findRigPort(listPorts?: PortLister): Promise<string> {
  const ports = await listSerialPorts(listPorts ? { listPorts } : {});
  const likely = likelyRigPorts(ports);
  const only = likely[0];
  if (likely.length === 1 && only) return only.byId ?? only.path;
  if (likely.length > 1) {
    throw new RigConnectError(
      `Several serial ports look like Arduinos (${likely.map((p) => p.path).join(', ')}): choose the rig's with --port.`,
      { command: 'connect', driver: 'serial' },
    );
  }
  const others = ports.length > 0 ? ` (serial ports here: ${ports.map((p) => p.path).join(', ')}; none has an Arduino's USB ids)` : '';
  throw new RigConnectError(`No rig found: no USB serial port with an Arduino is plugged in${others}. ${PLUG_IN_HINT}`, { command: 'connect', driver: 'serial' });
}

/** Our firmware on a real board over a serial port. */
export const serialFactory: RigFactory = {
  name: 'serial',
  description: 'the dicerig firmware on an Arduino over USB serial (--port PATH, or the one Arduino plugged in)',
  async create(options) {
    const path = options.port ?? (await findRigPort(options.listPorts));
    return new SerialRigDriver({ ...options.serial, path });
  },
};

/**
 * The real firmware in simavr on a pseudo-terminal, driven by the serial driver. The emulated
 * rig starts at rest (its home switch closed, as on a rig whose tumbler is home), and its
 * board stops when the driver closes.
 */
export const emulatedFactory: RigFactory = {
  name: 'emulated',
  description: 'the dicerig firmware running in an emulated Uno (simavr), no hardware needed',
  async create(options) {
    options.log?.('starting the emulated board (the dicerig firmware in simavr)');
    const board = await EmulatedBoard.start();
    board.pressSwitch('home');
    return new SerialRigDriver({
      ...options.serial,
      path: board.path,
      // The pty vanishes with the board and cannot come back: no point looking for it.
      reconnect: options.serial?.reconnect ?? false,
      onClose: async () => {
        await options.serial?.onClose?.();
        await board.stop();
      },
    });
  },
};

/** The in-process simulated rig. */
export const simulatedFactory: RigFactory = {
  name: 'sim',
  description: 'a simulated rig in-process (timing model and faults, no serial port); its rolls are marked simulated',
  async create(options) {
    return new SimulatedRig({
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.random ? { random: options.random } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.timing ? { timing: options.timing } : {}),
      ...(options.faults ? { faults: options.faults } : {}),
    });
  },
};

/**
 * Every rig driver dicerig knows, by name. Another driver registers itself here
 * (`rigFactories.register(...)`, from a module imported below).
 */
export const rigFactories = new RigFactoryRegistry()
  .register(serialFactory)
  .register(emulatedFactory)
  .register(simulatedFactory)
  .register(firmataFactory)
  .register(emulatedFirmataFactory);
