/**
 * Ids a tenant gives or is given (faults, receiver faults) live in the tenant's own space, and the sandbox's own in
 * another (docs/library.md, "Parallel test files on one sandbox"): two tenants may each set a fault `slow`, each
 * load the same scenario, and the ids made up for them (`fault-1`) count per tenant, so no tenant's ids depend on
 * what another did.
 */
export class IdSpaces {
  /** The last number given, per tenant (a platformId; '' for the sandbox's own space). */
  private readonly counters = new Map<string, number>();

  /** The next `<prefix><n>` of this space that `taken` does not refuse. */
  next(prefix: string, platformId: string | undefined, taken: (id: string) => boolean): string {
    const space = platformId ?? '';
    let n = this.counters.get(space) ?? 0;
    let id: string;
    do id = `${prefix}${++n}`;
    while (taken(id));
    this.counters.set(space, n);
    return id;
  }

  /** An id given before a restart: a made-up one (`<prefix><n>`) is not made up again. */
  skip(prefix: string, platformId: string | undefined, id: string): void {
    const n = id.startsWith(prefix) ? Number(id.slice(prefix.length)) : Number.NaN;
    const space = platformId ?? '';
    if (Number.isSafeInteger(n) && n > (this.counters.get(space) ?? 0)) this.counters.set(space, n);
  }
}
