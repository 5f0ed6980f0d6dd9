import type { LiveHub } from '../live/hub.js';
import type { LiveSeats } from '../live/liveSeats.js';
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
  /** Wrong API tokens per client address. */
  readonly failedAuth: RateLimiter;
  /**
   * Wrong chat tokens per client address, counted apart: on loopback the chat bot, OBS and the streamer's dashboard
   * share one address, and a bot sending an old chat token must not lock the streamer out of stopping the rig.
   */
  readonly failedChatAuth: RateLimiter;
  /** Live pages open at once, in all and per address. */
  readonly liveSeats: LiveSeats;
  /** How long a chat request waits for its roll before answering with its place in the queue. */
  readonly chatWaitMs: number;
}
