/**
 * What every room of one sandbox shares: the store, the clocks, the event bus and the id source. One `Services` per
 * sandbox (sandbox.ts composes it in wiring/state.ts), so many sandboxes run in one process.
 *
 * It carries the clocks, not a clock: the sandbox's is `clocks.sandbox`, a tenant's `clocks.of(platformId)`
 * (core/tenant-clocks.ts). An operation reads "now" from its context's `clock` (domain/context.ts), fixed to its
 * tenant when the context is built. (It lives here, not in core/, because it names the Store, and core/ sits below
 * the store.)
 */
import type { EventBus } from '../core/event-bus.js';
import type { IdSource } from '../core/ids.js';
import type { TenantClocks } from '../core/tenant-clocks.js';
import type { Timers } from '../core/timers.js';
import type { Store } from './store.js';

export interface Services {
  readonly store: Store;
  /** The sandbox clock (`clocks.sandbox`) and tenants' own clocks: `clocks.of(platformId)` is the one a tenant follows. */
  readonly clocks: TenantClocks;
  /** Kept timers on those clocks (core/timers.ts): planned work that survives a restart with --data. */
  readonly timers: Timers;
  readonly bus: EventBus;
  /** Replaced on a full reset by a source with the same seed, so a reset sandbox makes the same keys again. */
  ids: IdSource;
}
