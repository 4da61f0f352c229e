/**
 * What domain code receives instead of Hono's `c`: the sandbox's services plus, per request, who is asking.
 */
import type { Clock } from '../core/clock.js';
import type { ContractEvent, ContractEventData } from '../core/events.js';
import type { ContractEventType } from '../core/vocabulary.js';
import type { ClientRecord } from '../store/records.js';
import type { Services } from '../store/services.js';
import { isoTime } from '../core/time-format.js';
import type { TraceContext } from '../core/trace-context.js';

export type Principal =
  | { kind: 'platform-token'; platformId: string; token: string }
  | { kind: 'client-token'; platformId: string; clientKey: string; token: string }
  | { kind: 'api-key'; platformId: string };

/**
 * Context of one operation: the services, the tenant it acts in and that tenant's clock, the caller, the client it
 * acts for, and what caused it. Built once the tenant is known and never changed after: `clock` is always
 * `clocks.of(tenant)`, wherever it is read.
 */
export interface OpContext extends Services {
  /** The tenant (platform id) the operation acts in; undefined for sandbox-wide work. */
  readonly tenant: string | undefined;
  /** The tenant's clock (`clocks.of(tenant)`: its own, else the sandbox's), fixed when the context is built. */
  readonly clock: Clock;
  readonly principal?: Principal | undefined;
  readonly client?: ClientRecord | undefined;
  /** `api` for API requests, `control` for the control API, `page` for the recipient page, or a scenario's id. */
  readonly cause: string;
  /** An /api request's trace (docs/webhooks.md, "Traces"): the events it emits, and so their deliveries, carry it. */
  readonly trace?: TraceContext | undefined;
}

/**
 * The context for work that does not come from an /api caller (control API, pages, scenarios, timers); with
 * `platformId`, in that tenant, on its clock.
 */
export function systemContext(services: Services, cause: string, platformId?: string): OpContext {
  return context(services, platformId, cause, {}, undefined);
}

/**
 * The context of an /api operation (http/router.ts builds it once per request): the tenant its caller's credentials
 * name, or, for an operation that reads none, the tenant its key names (a share link, an API key in the body).
 */
export function apiContext(
  services: Services,
  tenant: string | undefined,
  caller: { principal?: Principal | undefined; client?: ClientRecord | undefined } = {},
  trace?: TraceContext,
): OpContext {
  return context(services, tenant, 'api', caller, trace);
}

/**
 * Each field written out: `{ ...services, tenant, … }` (a spread followed by more fields) takes a slow path on Node
 * 20, 4 µs in a micro-benchmark and 13 µs per request in the sandbox's profile, about 4 % of a warm webhook fan-out's
 * CPU, where each /api request builds one (docs/benchmarks.md, the fan-out row).
 */
function context(
  services: Services,
  tenant: string | undefined,
  cause: string,
  caller: { principal?: Principal | undefined; client?: ClientRecord | undefined },
  trace: TraceContext | undefined,
): OpContext {
  return {
    store: services.store,
    clocks: services.clocks,
    timers: services.timers,
    bus: services.bus,
    ids: services.ids,
    tenant,
    clock: services.clocks.of(tenant),
    cause,
    principal: caller.principal,
    client: caller.client,
    trace,
  };
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
