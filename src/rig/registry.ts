import type { Clock } from '../core/clock.js';
import type { RandomSource } from '../stats/random.js';
import type { RigDriver } from './driver.js';
import { RigError } from './errors.js';
import type { FirmataSettingKeys } from './firmata/firmataSettings.js';
import type { PortLister } from './serial/portLocator.js';
import type { SerialDriverOptions } from './serial/serialDriver.js';
import type { SimulatedFaults } from './simulated/simulatedRig.js';
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
  /** The Firmata rig's settings (`rig.firmata` in the session config), for `firmata` and `emulated-firmata`. */
  readonly firmata?: FirmataSettingKeys;
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
 * Named rig factories. Each driver's factory module depends on this one only; `factory.ts` puts
 * them together in `rigFactories`, and config and the CLI choose one by name.
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
