import { describe, expect, it } from 'vitest';
import { checkSessionConfig } from '../../src/session/config.js';
import { resumedConfigNotice } from '../../src/session/resumedConfigNotice.js';

const config = (stopping: Record<string, number>) => checkSessionConfig({ seed: 1, dice: [{ label: 'n-A', type: 'd6' }], rig: { driver: 'sim' }, stopping });

describe('the notice for a config given with --resume', () => {
  it('points a changed time budget at --more-hours, as the session counts its own over all its runs', () => {
    const notice = resumedConfigNotice(4, config({ budgetHours: 2 }), config({ budgetHours: 1 }), false);
    expect(notice).toContain('stopping.budgetHours (2 in this config, 1 in the session) is not used; to roll on past its time budget, give --more-hours H');
    expect(resumedConfigNotice(4, config({ budgetHours: 2 }), config({ budgetHours: 1 }), false, true)).not.toContain('--more-hours');
  });
});
