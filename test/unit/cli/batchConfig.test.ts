import { describe, expect, it } from 'vitest';
import { batchSessionConfig } from '../../../src/cli/campaign/batchConfig.js';

const batch = (dice: { label: string; die: string }[]) => ({
  campaign: 'xw',
  campaignUid: '00000000-0000-4000-8000-000000000000',
  rig: '2',
  sessionName: 'campaign xw rig 2 batch 1',
  batchId: 1,
  dice,
  rollsPerLeg: 40,
  seed: 7,
  rigBias: { symbol: 'hit', excess: 0.05 },
});

describe('a simulated campaign batch on a rig that favours a symbol', () => {
  it('favours it on a batch whose dice show it, and rolls a batch whose dice do not show it unbiased instead of failing', () => {
    const red = batchSessionConfig(batch([{ label: 'R-01', die: 'red' }, { label: 'R-02', die: 'red' }]));
    expect(red.camera).toMatchObject({ rigBias: { symbol: 'hit', excess: 0.05 } });
    const green = batchSessionConfig(batch([{ label: 'G-01', die: 'green' }]));
    expect(green.camera).not.toHaveProperty('rigBias');
    const mixed = batchSessionConfig(batch([{ label: 'R-01', die: 'red' }, { label: 'G-01', die: 'green' }]));
    expect(mixed.camera).not.toHaveProperty('rigBias');
  });
});
