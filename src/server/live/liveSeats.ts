/**
 * How many live pages (`/live` connections) the server keeps open: in all, and from one address. Each page is
 * sent every event of the rig, so a server reachable from the network would otherwise let anyone who can reach it
 * open connections until its memory and the fan-out ran out, the streamer's overlay and dashboard with it.
 */
export interface LiveSeatLimits {
  /** Live pages open at once, from all addresses. */
  readonly total: number;
  /** Live pages open at once from one address (behind a proxy, the client's as the proxy forwards it, given --trust-proxy). */
  readonly perAddress: number;
}

export class LiveSeats {
  private readonly byAddress = new Map<string, number>();
  private used = 0;

  constructor(readonly limits: LiveSeatLimits) {}

  get open(): number {
    return this.used;
  }

  /** Why one more page from this address would be refused, or undefined when it would be let in. */
  refusal(address: string): string | undefined {
    if (this.used >= this.limits.total) return `the server has ${this.limits.total} live pages open, its limit (server.liveMax): close one or raise the limit`;
    if ((this.byAddress.get(address) ?? 0) >= this.limits.perAddress) return `your address has ${this.limits.perAddress} live pages open, its limit (server.livePerAddress): close one or raise the limit`;
    return undefined;
  }

  /** Takes a seat: the function that gives it back (once, however often it is called), or the refusal. */
  take(address: string): (() => void) | string {
    const why = this.refusal(address);
    if (why !== undefined) return why;
    this.used++;
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.used--;
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left === 0) this.byAddress.delete(address);
      else this.byAddress.set(address, left);
    };
  }
}
