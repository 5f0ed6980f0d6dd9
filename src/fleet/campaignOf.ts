/**
 * What the replicator reads from a session's stored config for the fleet's
 * rows: the campaign it belongs to (`campaign`, a name, when the session was
 * run for one, and `campaignUid`, that campaign's own id, in sessions run by
 * this version on), the campaign rig it rolled for (`campaignRig`) and the camera the rig used. Unreadable or
 * absent: null.
 */
export interface ConfigFacts {
  readonly campaign: string | null;
  readonly campaignUid: string | null;
  readonly campaignRig: string | null;
  readonly camera: string | null;
}

const NO_FACTS: ConfigFacts = { campaign: null, campaignUid: null, campaignRig: null, camera: null };

export function configFacts(configJson: string): ConfigFacts {
  let config: unknown;
  try {
    config = JSON.parse(configJson);
  } catch {
    return NO_FACTS;
  }
  if (typeof config !== 'object' || config === null) return NO_FACTS;
  const c = config as { campaign?: unknown; campaignUid?: unknown; campaignRig?: unknown; camera?: { source?: unknown; device?: unknown } };
  const campaign = typeof c.campaign === 'string' && c.campaign.trim() !== '' ? c.campaign.trim() : null;
  const campaignUid = typeof c.campaignUid === 'string' && c.campaignUid !== '' ? c.campaignUid : null;
  const campaignRig = typeof c.campaignRig === 'string' && c.campaignRig.trim() !== '' ? c.campaignRig.trim() : null;
  const source = typeof c.camera?.source === 'string' ? c.camera.source : null;
  const camera = source === null ? null : typeof c.camera?.device === 'string' ? `${source}:${c.camera.device}` : source;
  return { campaign, campaignUid, campaignRig, camera };
}
