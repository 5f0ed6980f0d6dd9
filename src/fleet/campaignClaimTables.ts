/**
 * Fleet migration 4: who rolls a campaign batch, and which session counts for it.
 *
 * Before it a batch's session was found by name (`campaign NAME rig R batch B`) within its campaign, so two hosts
 * run with the same `--rig` both rolled the open batch and both sessions counted; a host restarted with another
 * local store began the batch again beside its partial session, and both counted; and a local store that ran a
 * campaign of the same name in another fleet store (or before the fleet database was made again) brought its
 * sessions along, matched by name. Now:
 *
 * - `campaigns.uid` is the campaign's own id, never reused: a name is reused (another fleet database, a database
 *   made again), the uid is not. A batch's session carries it in its config, and only a session carrying it is
 *   taken as the campaign's.
 * - `campaign_batches.store` is, with `host`, the claim: the local store file that rolls the batch, on that host. Any
 *   other host or store is refused (or takes the batch over when told the holder is gone: `--take-over`).
 * - `campaign_batches.genesis` (there since migration 2, unused until now) is the one session that counts for the
 *   batch: the genesis hash of its chain, set when the claiming store opens the batch's session. A session of
 *   another host or store, or one abandoned by a take-over, is still copied but counts for no batch.
 *
 * Older stores: each planned campaign gets a uid; each batch's session is the one of its name and campaign that
 * the claiming host copied (if none did, the first copied), and its store file becomes the claim's.
 */
export const CAMPAIGN_CLAIM_MIGRATION = {
  version: 4,
  description: "campaign claims: a campaign's own id (uid), a batch's claiming store file beside its host, and the one session that counts for it (genesis)",
  sql: `
    ALTER TABLE campaigns ADD COLUMN uid TEXT UNIQUE;
    UPDATE campaigns SET uid = md5(id::text || ':' || created_at::text || ':' || random()::text || ':' || clock_timestamp()::text) WHERE settings_json IS NOT NULL;
    ALTER TABLE campaign_batches ADD COLUMN store TEXT;
    UPDATE campaign_batches b SET genesis = (
        SELECT s.genesis FROM sessions s
         WHERE s.name = b.session_name AND s.campaign_id = b.campaign_id
         ORDER BY (s.origin_host = b.host) DESC, s.id LIMIT 1)
      WHERE b.genesis IS NULL;
    UPDATE campaign_batches b SET store = s.origin_db FROM sessions s WHERE s.genesis = b.genesis AND s.origin_host = b.host AND b.store IS NULL;
    CREATE UNIQUE INDEX campaign_batches_by_genesis ON campaign_batches(genesis) WHERE genesis IS NOT NULL;
  `,
} as const;
