/**
 * Roll requests waiting for the rig, fair between clients: each client has its
 * own line, and the rig takes one request from each client in turn (round
 * robin), so a bot asking fifty times cannot starve a viewer asking once.
 */
export interface Queued<T> {
  readonly id: string;
  readonly client: string;
  readonly item: T;
}

export class RollQueue<T> {
  private readonly lines = new Map<string, Queued<T>[]>();
  /** Clients in turn order; the next turn goes to the first one with a request waiting. */
  private order: string[] = [];

  get size(): number {
    let n = 0;
    for (const l of this.lines.values()) n += l.length;
    return n;
  }

  /** How many requests this client has waiting. */
  waitingFor(client: string): number {
    return this.lines.get(client)?.length ?? 0;
  }

  push(entry: Queued<T>): void {
    const line = this.lines.get(entry.client);
    if (line) line.push(entry);
    else {
      this.lines.set(entry.client, [entry]);
      this.order.push(entry.client);
    }
  }

  /** The next request in turn; its client goes to the back of the turn order. */
  shift(): Queued<T> | undefined {
    const client = this.order.shift();
    if (client === undefined) return undefined;
    const line = this.lines.get(client) as Queued<T>[];
    const next = line.shift() as Queued<T>;
    if (line.length > 0) this.order.push(client);
    else this.lines.delete(client);
    return next;
  }

  /** Removes a request; true when it was waiting. */
  remove(id: string): boolean {
    for (const [client, line] of this.lines) {
      const i = line.findIndex((e) => e.id === id);
      if (i < 0) continue;
      line.splice(i, 1);
      if (line.length === 0) {
        this.lines.delete(client);
        this.order = this.order.filter((c) => c !== client);
      }
      return true;
    }
    return false;
  }

  /** Every waiting request in the order the rig would take them. */
  list(): Queued<T>[] {
    const lines = new Map([...this.lines].map(([c, l]) => [c, [...l]]));
    const order = [...this.order];
    const out: Queued<T>[] = [];
    for (;;) {
      const client = order.shift();
      if (client === undefined) return out;
      const line = lines.get(client) as Queued<T>[];
      out.push(line.shift() as Queued<T>);
      if (line.length > 0) order.push(client);
    }
  }

  /** 1-based place of a request in the line the rig works through (undefined when not waiting). */
  placeOf(id: string): number | undefined {
    const i = this.list().findIndex((e) => e.id === id);
    return i < 0 ? undefined : i + 1;
  }

  clear(): Queued<T>[] {
    const all = this.list();
    this.lines.clear();
    this.order = [];
    return all;
  }
}
