/**
 * Fleet migration 2: campaign tables. A campaign (the `campaigns` row of
 * migration 1, now with its settings) holds its box of dice, its legs (one
 * die's session on one rig) and its batches (the dice one rig took at once,
 * with the local session that rolled them). `held_by` on a campaign die is the
 * rig that has it now: a die is in one rig at a time, and a rig takes dice by
 * locking their rows (SELECT … FOR UPDATE SKIP LOCKED), so two rigs never take
 * the same die.
 */
export const CAMPAIGN_MIGRATION = {
  version: 2,
  description: 'campaigns: settings, box of dice (held by at most one rig), legs (die x rig), batches (one rig session each)',
  sql: `
    ALTER TABLE campaigns ADD COLUMN settings_json TEXT;
    CREATE TABLE campaign_dice (
      campaign_id BIGINT  NOT NULL REFERENCES campaigns(id),
      label       TEXT    NOT NULL,
      type_id     TEXT    NOT NULL,
      position    INTEGER NOT NULL,
      held_by     TEXT,
      PRIMARY KEY (campaign_id, label)
    );
    CREATE TABLE campaign_batches (
      id           BIGSERIAL PRIMARY KEY,
      campaign_id  BIGINT  NOT NULL REFERENCES campaigns(id),
      rig          TEXT    NOT NULL,
      host         TEXT    NOT NULL,
      claimed_at   DOUBLE PRECISION NOT NULL,
      session_name TEXT    NOT NULL,
      genesis      TEXT,
      done_at      DOUBLE PRECISION
    );
    CREATE INDEX campaign_batches_open ON campaign_batches(campaign_id, rig) WHERE done_at IS NULL;
    CREATE TABLE campaign_legs (
      campaign_id BIGINT  NOT NULL REFERENCES campaigns(id),
      label       TEXT    NOT NULL,
      rig         TEXT    NOT NULL,
      step        INTEGER NOT NULL,
      position    INTEGER NOT NULL,
      state       TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'claimed', 'done')),
      batch_id    BIGINT  REFERENCES campaign_batches(id),
      PRIMARY KEY (campaign_id, label, rig),
      FOREIGN KEY (campaign_id, label) REFERENCES campaign_dice(campaign_id, label)
    );
  `,
} as const;
