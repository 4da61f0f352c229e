/**
 * What domain code receives instead of Hono's `c`: the sandbox's services plus, per request, who is asking.
 */
import type { Clock } from '../core/clock.js';
import type { TenantClocks } from '../core/tenant-clocks.js';
import type { EventBus } from '../core/event-bus.js';
import type { ContractEvent, ContractEventData } from '../core/events.js';
import type { ContractEventType } from '../core/vocabulary.js';
import type { IdSource } from '../core/ids.js';
import type { ClientRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { isoTime } from '../core/time-format.js';
import type { TraceContext } from '../core/trace-context.js';

export interface Services {
  store: Store;
  /** The sandbox clock; in an operation's context, the clock of the tenant it acts in (see `enterTenant`). */
  clock: Clock;
  /** Tenants' own clocks (core/tenant-clocks.ts): `clocks.of(platformId)` is the clock a tenant follows. */
  clocks: TenantClocks;
  bus: EventBus;
  ids: IdSource;
}

export type Principal =
  | { kind: 'platform-token'; platformId: string; token: string }
  | { kind: 'client-token'; platformId: string; clientKey: string; token: string }
  | { kind: 'api-key'; platformId: string };

/** Context of one operation: the services, the caller, the client it acts for, and what caused it. */
export interface OpContext extends Services {
  principal?: Principal;
  client?: ClientRecord;
  /** `api` for API requests, `control` for the control API, or a scenario rule/step id. */
  cause: string;
  /** An /api request's trace (docs/webhooks.md, "Traces"): the events it emits, and so their deliveries, carry it. */
  trace?: TraceContext | undefined;
}

/**
 * The context for work that does not come from an API request (control API, scenarios, timers); with `platformId`,
 * on that tenant's clock.
 */
export function systemContext(services: Services, cause: string, platformId?: string): OpContext {
  return { ...services, clock: services.clocks.of(platformId), cause };
}

/**
 * The operation acts in this tenant from now on: its times are the tenant's clock's (an API request once its
 * credentials or its share link name the platform).
 */
export function enterTenant(ctx: OpContext, platformId: string): void {
  ctx.clock = ctx.clocks.of(platformId);
}

export function requireClient(ctx: OpContext): ClientRecord {
  if (!ctx.client) throw new Error('operation needs a client context');
  return ctx.client;
}

export function emitContractEvent(
  ctx: OpContext,
  type: ContractEventType,
  platformId: string,
  data: ContractEventData,
): ContractEvent {
  const event: ContractEvent = {
    id: `msg_${ctx.ids.key(24)}`,
    type,
    timestamp: isoTime(ctx.clock.now()),
    data,
    platformId,
    cause: ctx.cause,
    ...(ctx.trace ? { trace: ctx.trace } : {}),
  };
  ctx.bus.emit(event);
  return event;
}
