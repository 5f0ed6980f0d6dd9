import type { LiveHub } from '../live/hub.js';
import type { RigController } from '../rigController.js';
import type { Tokens } from '../security/auth.js';
import type { RateLimiter } from '../security/rateLimit.js';

/** What the routes share. */
export interface RouteContext {
  readonly controller: RigController;
  readonly hub: LiveHub;
  readonly tokens: Tokens;
  readonly apiLimit: RateLimiter;
  readonly chatLimit: RateLimiter;
  /** Wrong tokens (API or chat) per client address. */
  readonly failedAuth: RateLimiter;
  /** How long a chat request waits for its roll before answering with its place in the queue. */
  readonly chatWaitMs: number;
}
