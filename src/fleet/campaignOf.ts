/**
 * What the replicator reads from a session's stored config for the fleet's
 * rows: the campaign it belongs to (`campaign`, a name, when the session was
 * run for one, and `campaignUid`, that campaign's own id, in sessions run by
 * this version on) and the camera the rig used. Unreadable or absent: null.
 */
export function configFacts(configJson: string): { campaign: string | null; campaignUid: string | null; camera: string | null } {
  let config: unknown;
  try {
    config = JSON.parse(configJson);
  } catch {
    return { campaign: null, campaignUid: null, camera: null };
  }
  if (typeof config !== 'object' || config === null) return { campaign: null, campaignUid: null, camera: null };
  const c = config as { campaign?: unknown; campaignUid?: unknown; camera?: { source?: unknown; device?: unknown } };
  const campaign = typeof c.campaign === 'string' && c.campaign.trim() !== '' ? c.campaign.trim() : null;
  const campaignUid = typeof c.campaignUid === 'string' && c.campaignUid !== '' ? c.campaignUid : null;
  const source = typeof c.camera?.source === 'string' ? c.camera.source : null;
  const camera = source === null ? null : typeof c.camera?.device === 'string' ? `${source}:${c.camera.device}` : source;
  return { campaign, campaignUid, camera };
}
