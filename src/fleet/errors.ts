import { DicerigError } from '../core/errors.js';

/** Where a fleet error happened: the fleet store's URL (never its password), and the session and throw when there is one. */
export interface FleetErrorContext {
  readonly url?: string;
  readonly db?: string;
  readonly session?: number | string;
  readonly throwIndex?: number;
  readonly [key: string]: string | number | boolean | undefined;
}

/** The fleet store (PostgreSQL) cannot do what was asked: unreachable, refused, a newer schema, a session not there. */
export class FleetError extends DicerigError {
  constructor(
    message: string,
    readonly where: FleetErrorContext = {},
    options?: { cause?: unknown },
  ) {
    super(message, { ...where }, options);
  }
}

/** What arrives does not fit what the fleet store holds: a broken hash chain, or another throw under a stored throw's id. Never retried. */
export class FleetIntegrityError extends FleetError {}

/** The fleet store could not be reached or dropped the connection: worth retrying later. */
export class FleetUnreachableError extends FleetError {}

/** The fleet store will not let this user in: no password to give it, or the one given is refused. Retrying cannot help until the password or the server's settings change. */
export class FleetLoginError extends FleetError {}

/**
 * A campaign batch held by another rig host or local store (rolling it here too would count its dice twice), or one
 * this rig host no longer holds (taken over meanwhile), or a session that cannot close it. Context: campaign, rig,
 * batch, and the holder's host, store file and since when.
 */
export class CampaignClaimError extends FleetError {}
