/**
 * The session a rig host runs for one campaign batch: the rig's own session
 * config (its rig, camera, calibration, stopping rules) with the batch's dice
 * in its channels, the leg's roll budget, and the campaign's name and rig id
 * (the fleet store tags the session with them). Without a config file, the
 * simulated rig and camera on a simulated clock, as in `dicerig demo`.
 */
import { ConfigError } from '../../core/errors.js';
import type { DieType } from '../../dice/types.js';
import { checkSessionConfig, configDieTypes, type SessionConfig, type SessionConfigInput } from '../../session/config.js';

export interface BatchSessionInput {
  readonly campaign: string;
  /** The campaign's own id in its fleet store (its name is not unique across fleet databases). */
  readonly campaignUid: string;
  readonly rig: string;
  readonly sessionName: string;
  readonly batchId: number;
  readonly dice: readonly { readonly label: string; readonly die: string }[];
  readonly rollsPerLeg: number;
  /** The definitions of the box's dice of the user's own, kept with the campaign: the batch's session rolls and keeps them. */
  readonly dieTypes?: readonly DieType[];
  /** The rig host's base seed (simulated parts); each batch draws its own from it. */
  readonly seed: number;
  /** Simulated camera only: the rig favours this symbol on every die that shows it (a batch of dice that do not is rolled unbiased). */
  readonly rigBias?: { readonly symbol: string; readonly excess: number };
  /** Simulated camera only: this rig's camera cannot read this D6 face on any die (it draws the face as a logo). */
  readonly unreadableFace?: string;
}

/** The simulated rig host's config when no file is given. */
function simulatedBase(): SessionConfigInput {
  return {
    dice: [{ label: 'placeholder', type: 'd6' }],
    rig: { driver: 'sim', light: 200 },
    camera: { source: 'sim', lighting: 'studio', cockedRate: 0.02, dieSizePx: 72, fps: 30, frames: 'rest' },
    settle: { mode: 'detect', timeoutMs: 5000 },
    clock: 'auto',
    evidence: 'none',
  };
}

export function batchSessionConfig(input: BatchSessionInput, base?: SessionConfig): SessionConfig {
  const start: SessionConfigInput = base ?? simulatedBase();
  if (input.rigBias !== undefined && start.camera !== undefined && start.camera.source !== 'sim') {
    throw new ConfigError('camera.rigBias', 'a rig bias can only be simulated with the simulated camera (camera.source: sim)');
  }
  if (input.unreadableFace !== undefined && start.camera !== undefined && start.camera.source !== 'sim') {
    throw new ConfigError('dice.simulatedLogo', 'a face the camera cannot read can only be simulated with the simulated camera (camera.source: sim)');
  }
  const camera = start.camera ?? { source: 'sim' as const };
  const stopping = { ...(start.stopping ?? {}), budgetRolls: input.rollsPerLeg };
  const own = (input.dieTypes ?? []).filter((t) => input.dice.some((d) => d.die === t.id)).map((t) => ({ ...t }));
  const made = (bias: BatchSessionInput['rigBias']): SessionConfig => checkSessionConfig(
    {
      ...start,
      name: input.sessionName,
      campaign: input.campaign,
      campaignRig: input.rig,
      campaignUid: input.campaignUid,
      campaignBatch: input.batchId,
      // The campaign's definitions of its dice, not the rig config's: every rig rolls the box as the campaign defines it.
      ...(own.length > 0 ? { dieTypes: own } : {}),
      dice: input.dice.map((d) => ({ label: d.label, type: d.die, set: `campaign ${input.campaign}`, ...(input.unreadableFace !== undefined ? { simulatedLogo: input.unreadableFace as '1' } : {}) })),
      camera: bias !== undefined && camera.source === 'sim' ? { ...camera, rigBias: { ...bias } } : camera,
      stopping,
      seed: (input.seed + input.batchId * 7919) >>> 0,
    },
    `campaign ${input.campaign} batch ${input.batchId}`,
  );
  const plain = made(undefined);
  // A rig favours a symbol on the dice that show it: a box of red and green X-Wing dice rolls its green batches
  // unbiased by a rig that favours hits, which no green die shows.
  const shown = input.rigBias !== undefined && configDieTypes(plain).every((t) => t.symbols.includes((input.rigBias as { symbol: string }).symbol));
  return shown ? made(input.rigBias) : plain;
}
