import type { RigFactory } from '../registry.js';
import { SimulatedRig } from './simulatedRig.js';

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
