/**
 * In-flight state kept beside the records (docs/persistence.md, "What is kept"): what the subsystems hold between
 * requests (webhook deliveries and their retries, emails, the request journal, faults, outages, scenarios, clocks
 * and their timers), each as a collection of plain JSON records. A subsystem tells its keeper which record changed;
 * with `--data` the store writes that record's state with the next flush and, on the next start, hands every kept
 * record back to the collection it came from. In memory a change costs one call that does nothing.
 */

/** A subsystem's collection of kept records, as the store reads and restores it. */
export interface KeptCollection {
  /** The record's JSON-ready state now; `undefined` once it is gone. */
  record(key: string): unknown;
  /** The keys of every record it holds now, oldest first (a snapshot writes them all). */
  keys(): Iterable<string>;
  /** Puts one kept record back (a start on a data file, a snapshot restored), oldest first. */
  restore(key: string, record: unknown): void;
  /** Called once every record of the collection has been restored. */
  restored?(): void;
  /** Forgets every record, before a whole new set is restored (a snapshot put back). */
  clear?(): void;
}

/** What a subsystem tells about its records. */
export interface Keeper {
  /** The record under `key` was added, changed or removed: its state is written with the next flush. */
  changed(key: string): void;
}

/** Where subsystems register their collections (the store). */
export interface KeptState {
  /** Registers a collection under a name no other uses; collections are restored in the order they registered. */
  keep(name: string, collection: KeptCollection): Keeper;
}

/** Keeps nothing (a part used on its own, in a test). */
export const KEEP_NOTHING: KeptState = { keep: () => ({ changed() {} }) };
