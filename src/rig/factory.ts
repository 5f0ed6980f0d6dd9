/**
 * Every rig driver dicerig knows, by name (`rigFactories`). Each driver's factory lives with the
 * driver and depends only on `registry.ts`; this module puts them together, so nothing imports it
 * back and there is no cycle.
 */
import { emulatedFirmataFactory, firmataFactory } from './firmata/firmataFactory.js';
import { RigFactoryRegistry } from './registry.js';
import { emulatedFactory, serialFactory } from './serial/serialFactory.js';
import { simulatedFactory } from './simulated/simulatedFactory.js';

export { findRigPort, PLUG_IN_HINT } from './ports.js';
export { RigFactoryRegistry, type RigFactory, type RigFactoryOptions } from './registry.js';
export { emulatedFactory, serialFactory } from './serial/serialFactory.js';
export { simulatedFactory } from './simulated/simulatedFactory.js';

export const rigFactories = new RigFactoryRegistry()
  .register(serialFactory)
  .register(emulatedFactory)
  .register(simulatedFactory)
  .register(firmataFactory)
  .register(emulatedFirmataFactory);
