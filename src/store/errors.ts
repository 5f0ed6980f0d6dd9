import { DicerigError } from '../core/errors.js';

/** Where a store error happened: the database file, and the session and throw when there is one. */
export interface StoreErrorContext {
  readonly db?: string;
  readonly session?: number | string;
  readonly throwIndex?: number;
  readonly [key: string]: string | number | boolean | undefined;
}

/** The roll store cannot do what was asked: a missing or foreign database, a newer schema, an unknown session, a throw it must refuse. */
export class StoreError extends DicerigError {
  constructor(
    message: string,
    readonly where: StoreErrorContext = {},
    options?: { cause?: unknown },
  ) {
    super(message, { ...where }, options);
  }
}

/** A session another live process is writing: a second writer would store every throw twice. */
export class SessionLockedError extends StoreError {
  constructor(
    message: string,
    where: StoreErrorContext & { readonly session: number; readonly pid: number; readonly host: string },
  ) {
    super(message, { ...where, reason: 'session-locked' });
  }
}
