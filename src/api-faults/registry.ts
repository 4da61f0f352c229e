/**
 * API faults: make matching /api requests fail with a status (500, 503, 429 with Retry-After…), answer late, break
 * their connection or trickle their answer.
 * Set by scenarios (`faults:`, timeline `addFaults`) or directly through /__sandbox/faults.
 *
 * Probabilities draw from a random source seeded per fault (from the scenario's `seed`, else the sandbox's
 * --seed, else 1, and the fault's id), so the same requests hit the same faults on every run, whatever else
 * the sandbox does with its own random numbers.
 *
 * This file keeps the faults and decides what a request meets; http/api-faults.ts applies that to the request.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ClockTimer } from '../core/clock.js';
import type { Services } from '../store/services.js';
import { ApiError } from '../core/errors.js';
import { seededRandom } from '../core/ids.js';
import { type Fault, FaultSet } from '../core/fault-set.js';
import { durationMs } from '../core/duration.js';
import { later } from '../core/time-range.js';
import type { ConnectionFault, FaultSpec } from './spec.js';
import { isoTime } from '../core/time-format.js';
import { globMatches } from '../core/glob.js';
import type { RequestBody } from '../domain/request-facts.js';

export interface FaultView {
  id: string;
  /** `control` for faults set through /__sandbox/faults, else `scenario:<name>`. */
  source: string;
  /** The tenant it was set for (scoped): it hits only that platform's requests. */
  platformId?: string;
  match: FaultSpec['match'];
  status?: number;
  retryAfter?: number;
  latencyMs?: number;
  connection?: ConnectionFault;
  dribbleMs?: number;
  probability?: number;
  times?: number;
  after?: number;
  /** Matching requests seen / requests the fault hit. */
  seen: number;
  hits: number;
  /** Set once `times` hits have been used up: the fault no longer fires. */
  exhausted: boolean;
  until?: string;
}

type ActiveFault = Fault<FaultSpec>;

const DEFAULT_MESSAGES: Record<number, string> = {
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

export class ApiFaults {
  /** Faults end at `until` on their tenant's clock: the timer of each that has one. */
  private readonly ends = new Map<ActiveFault, ClockTimer>();
  private readonly faults: FaultSet<FaultSpec>;

  constructor(
    private readonly services: Services,
    private readonly defaultSeed: number,
  ) {
    // Kept across a restart (core/fault-set.ts); each tenant, and the sandbox, has its own ids (`fault-1` in each).
    this.faults = new FaultSet<FaultSpec>({
      name: 'faults',
      prefix: 'fault-',
      noun: 'A fault',
      kept: services.store,
      removed: (fault) => {
        this.ends.get(fault)?.cancel();
        this.ends.delete(fault);
      },
      restored: (fault) => this.armEnd(fault),
    });
    // API faults outlive a reset, but the reset drops every clock timer: give timed faults their end again.
    services.bus.on('sandbox.reset', () => {
      for (const f of this.faults.all) this.armEnd(f);
    });
  }

  private armEnd(fault: ActiveFault): void {
    if (fault.until === undefined) return;
    this.ends.get(fault)?.cancel();
    const end = () => this.remove(fault.id, fault.platformId);
    const clock = this.services.clocks.of(fault.platformId);
    // One that ended while the process was down is gone at once.
    if (fault.until <= clock.now()) return void end();
    this.ends.set(fault, clock.schedule(fault.until, end, `fault:${fault.id}:end`, fault.platformId));
  }

  /** Adds a fault; returns its id. `seed` overrides the sandbox's seed for its probability draws. */
  add(spec: FaultSpec, source = 'control', seed?: number, platformId?: string): string {
    const until =
      spec.for !== undefined ? later(this.services.clocks.of(platformId).now(), durationMs(spec.for)) : undefined;
    const fault = this.faults.add(spec, source, seed ?? this.defaultSeed, platformId, until);
    this.armEnd(fault);
    return fault.id;
  }

  /** Removes one fault of this tenant's ids (`platformId`), or of the sandbox's own. */
  remove(id: string, platformId?: string): boolean {
    return this.faults.remove(id, platformId);
  }

  /** Removes every fault, or only those of one source, or of one tenant. Returns how many went. */
  clear(source?: string, platformId?: string): number {
    return this.faults.clear(source, platformId);
  }

  list(): FaultView[] {
    return this.faults.all.map((f) => ({
      id: f.id,
      source: f.source,
      ...(f.platformId !== undefined ? { platformId: f.platformId } : {}),
      match: f.spec.match,
      ...(f.spec.status !== undefined ? { status: f.spec.status } : {}),
      ...(retryAfterOf(f.spec) !== undefined ? { retryAfter: retryAfterOf(f.spec)! } : {}),
      ...(f.spec.latency !== undefined ? { latencyMs: durationMs(f.spec.latency) } : {}),
      ...(f.spec.connection !== undefined ? { connection: f.spec.connection } : {}),
      ...(f.spec.dribble !== undefined ? { dribbleMs: durationMs(f.spec.dribble) } : {}),
      ...(f.spec.probability !== undefined ? { probability: f.spec.probability } : {}),
      ...(f.spec.times !== undefined ? { times: f.spec.times } : {}),
      ...(f.spec.after !== undefined ? { after: f.spec.after } : {}),
      seen: f.seen,
      hits: f.hits,
      exhausted: exhausted(f),
      ...(f.until !== undefined ? { until: isoTime(f.until) } : {}),
    }));
  }

  /**
   * Whether any fault could hit a request to this path, whether deciding needs the request's body, and whether it
   * needs the request's tenant (a fault set for one).
   */
  interest(path: string): { any: boolean; needsBody: boolean; needsTenant: boolean } {
    const candidates = this.candidates(path);
    return {
      any: candidates.length > 0,
      needsBody: candidates.some((f) => f.spec.match.action !== undefined || f.spec.match.client !== undefined),
      needsTenant: candidates.some((f) => f.platformId !== undefined),
    };
  }

  /**
   * Counts one /api request against every fault that matches it and says what happens to it: added latency and
   * dribble, the id of the last fault that hit, and the refusal or broken connection of the first fault with a status
   * or a connection (which ends the count).
   */
  decide(path: string, body: RequestBody | undefined, platformId?: string): FaultDecision {
    let latencyMs = 0;
    let dribbleMs = 0;
    let hit: string | undefined;
    for (const fault of this.candidates(path)) {
      if (fault.platformId !== undefined && fault.platformId !== platformId) continue;
      const { action, client } = fault.spec.match;
      if (action !== undefined && body?.operation !== action) continue;
      if (client !== undefined && clientKeyOf(body?.json) !== client) continue;
      fault.seen++;
      this.faults.changed(fault);
      if (fault.seen <= (fault.spec.after ?? 0)) continue;
      if (fault.spec.probability !== undefined && !(fault.random() < fault.spec.probability)) continue;
      fault.hits++;
      hit = fault.id;
      if (fault.spec.latency !== undefined) latencyMs += durationMs(fault.spec.latency);
      if (fault.spec.dribble !== undefined) dribbleMs += durationMs(fault.spec.dribble);
      if (fault.spec.connection !== undefined) return { latencyMs, dribbleMs: 0, hit, broken: broken(fault) };
      if (fault.spec.status !== undefined) return { latencyMs, dribbleMs: 0, hit, refusal: refusal(fault) };
    }
    return { latencyMs, dribbleMs, ...(hit !== undefined ? { hit } : {}) };
  }

  private candidates(path: string): ActiveFault[] {
    return this.faults.all.filter(
      (f) => !exhausted(f) && (f.spec.match.path === undefined || globMatches(f.spec.match.path, path)),
    );
  }

  get size(): number {
    return this.faults.size;
  }
}

export interface FaultDecision {
  latencyMs: number;
  /** Wall time over which the answer's body is trickled (0: sent as usual). */
  dribbleMs: number;
  /** The last fault that hit (the X-Sandbox-Fault header). */
  hit?: string;
  /** The answer of a fault with a status. */
  refusal?: ApiError;
  /** What a fault with a connection does instead of answering. */
  broken?: BrokenConnection;
}

export interface BrokenConnection {
  kind: ConnectionFault;
  /** The fault's id, for the journal and for what an in-process caller is told. */
  fault: string;
  /** For `garbage`: the bytes to send, from the fault's seeded random source (the same on every run). */
  bytes?: Uint8Array;
}

/** How many random bytes `garbage` sends: more than any status line, fewer than a TCP segment. */
const GARBAGE_BYTES = 256;

function broken(fault: ActiveFault): BrokenConnection {
  const kind = fault.spec.connection!;
  if (kind !== 'garbage') return { kind, fault: fault.id };
  // One draw of the fault's own source seeds the bytes: the same runs send the same bytes, and a fault's source moves
  // by one number per hit whatever it sends.
  const next = seededRandom(Math.floor(fault.random() * 2 ** 32));
  const bytes = Uint8Array.from({ length: GARBAGE_BYTES }, () => Math.floor(next() * 256));
  // Never the start of a status line: the client must meet bytes that are not HTTP from the first one.
  if (bytes[0] === 0x48) bytes[0] = 0x00;
  return { kind, fault: fault.id, bytes };
}

function refusal(fault: ActiveFault): ApiError {
  const retryAfter = retryAfterOf(fault.spec);
  const message =
    fault.spec.message ??
    `${DEFAULT_MESSAGES[fault.spec.status!] ?? 'Request failed'}${retryAfter !== undefined ? `; retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}` : ''}`;
  return new ApiError(fault.spec.status as ContentfulStatusCode, message, undefined, {
    'X-Sandbox-Fault': fault.id,
    ...(retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : {}),
  });
}

function exhausted(f: ActiveFault): boolean {
  return f.spec.times !== undefined && f.hits >= f.spec.times;
}

function retryAfterOf(spec: FaultSpec): number | undefined {
  if (spec.retryAfter !== undefined) return spec.retryAfter;
  return spec.status === 429 || spec.status === 503 ? 1 : undefined;
}

function clientKeyOf(body: unknown): string | undefined {
  const b = body as { clientKey?: unknown; data?: { clientKey?: unknown } } | undefined;
  const value = b?.data && typeof b.data === 'object' ? b.data.clientKey : b?.clientKey;
  return typeof value === 'string' ? value : undefined;
}
