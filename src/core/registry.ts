/**
 * Named factories chosen by a config value (the camera's `camera.source`, ...):
 * names are what a user types, so lower-case letters, digits and dashes.
 */
export class NamedRegistry<F extends { readonly name: string }> {
  private readonly entries = new Map<string, F>();

  /** `what` names the kind of factory in errors ("camera factory"). */
  constructor(private readonly what: string) {}

  register(factory: F): this {
    if (!/^[a-z][a-z0-9-]*$/.test(factory.name)) throw new RangeError(`${this.what} name "${factory.name}" must be lower-case letters, digits and dashes`);
    this.entries.set(factory.name, factory);
    return this;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The factory of that name, if there is one. */
  find(name: string): F | undefined {
    return this.entries.get(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  list(): F[] {
    return [...this.entries.values()];
  }
}
