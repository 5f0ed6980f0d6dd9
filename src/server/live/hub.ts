/**
 * The live event stream to every page: each event is numbered, sent as one
 * JSON text message to every connected client, and a client that connects (or
 * reconnects) gets the current state first, then the stream. A slow client is
 * dropped rather than allowed to hold the rig's events back.
 *
 * Events are numbered when published but written out (JSON, one send per
 * client) on the next turn of the event loop, in order: the fairness loop
 * publishes from inside its throw, and the fan-out to pages is the server's
 * work, not the throw's. So an event must not be changed after it is published.
 */
import { randomBytes } from 'node:crypto';

export interface LiveClient {
  send(text: string): void;
  /** Bytes queued but not yet sent (WebSocket bufferedAmount). */
  readonly bufferedAmount: number;
  close(): void;
}

/** Past this much unsent data a client is too slow and is dropped (it reconnects and gets the state). */
const MAX_BUFFERED = 4 * 1024 * 1024;

export class LiveHub {
  /** Changes at each server start: a page that sees another epoch knows the server restarted. */
  readonly epoch = randomBytes(6).toString('hex');
  private seq = 0;
  private readonly clients = new Set<LiveClient>();
  private pending: Record<string, unknown>[] = [];
  private flushing: NodeJS.Immediate | undefined;

  constructor(private readonly snapshot: () => Record<string, unknown>) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /** Adds a client: it gets the current state at once. */
  join(client: LiveClient): () => void {
    // The others get what is pending first; the state already includes it.
    this.flush();
    this.clients.add(client);
    client.send(JSON.stringify({ type: 'state', seq: this.seq, epoch: this.epoch, ...this.snapshot() }));
    return () => this.clients.delete(client);
  }

  /** Numbers an event and sends it to every client on the next turn of the event loop. */
  publish(event: { readonly type: string } & Record<string, unknown>): void {
    this.seq++;
    if (this.clients.size === 0) return;
    this.pending.push({ ...event, seq: this.seq, epoch: this.epoch });
    this.flushing ??= setImmediate(() => this.flush());
  }

  /** Sends the pending events, in order, to every client. */
  flush(): void {
    if (this.flushing !== undefined) clearImmediate(this.flushing);
    this.flushing = undefined;
    const events = this.pending;
    if (events.length === 0) return;
    this.pending = [];
    for (const event of events) {
      const text = JSON.stringify(event);
      for (const c of this.clients) {
        if (c.bufferedAmount > MAX_BUFFERED) {
          this.clients.delete(c);
          c.close();
          continue;
        }
        try {
          c.send(text);
        } catch {
          this.clients.delete(c);
        }
      }
    }
  }

  closeAll(): void {
    this.flush();
    for (const c of this.clients) c.close();
    this.clients.clear();
  }
}
