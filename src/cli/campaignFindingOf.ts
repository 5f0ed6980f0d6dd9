/**
 * A campaign finding as an export's manifest carries it (`campaignFinding`), checked: a file is read from anywhere,
 * and a finding that is not whole is not taken (the file is then judged by its session's own verdicts).
 */
import { z } from 'zod';
import type { CampaignSessionFinding } from '../analysis/campaign/sessionFindings.js';

const findingSchema = z.object({
  campaign: z.string().min(1),
  fleetSession: z.number().int(),
  rig: z.string().min(1),
  reason: z.string().min(1),
  alpha: z.number().gt(0).lt(1),
  sentence: z.string().min(1),
});

export function campaignFindingOf(value: unknown): CampaignSessionFinding | undefined {
  if (value === undefined) return undefined;
  const parsed = findingSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
