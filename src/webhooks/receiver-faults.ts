/**
 * Receiver faults (docs/webhooks.md, "Receiver faults"): the registry of faults set through the control operations
 * and scenarios, and the one hook the webhook dispatcher calls at each step of a delivery (`ReceiverFaultHook`):
 * hold it back, delay its first attempt, spoil its signature, send it twice. Each answer carries the hit the
 * dispatcher logs on the attempt it affected. Probabilities draw from a random source seeded per fault (the given
 * seed, default 1, mixed with the fault's id), so runs repeat exactly. The spec is in receiver-fault-spec.ts.
 */
import { type Fault, FaultSet } from '../core/fault-set.js';
import type { KeptState } from '../core/kept.js';
import { parseDuration } from '../core/duration.js';
import type { EventBus } from '../core/event-bus.js';
import type { ContractEventType } from '../core/vocabulary.js';
import type { ReceiverFaultKind, ReceiverFaultSpec, ReceiverFaultView } from './receiver-fault-spec.js';
import type { SignatureFault } from './sender.js';

/** What a hit records in the delivery log (on the attempt it affected). */
export interface ReceiverFaultHit {
  id: string;
  kind: ReceiverFaultKind;
  source: string;
  /** What was done, in words (e.g. "signed with a wrong secret"). */
  detail?: string;
}

/** The delivery a fault is matched against. */
export interface FaultTarget {
  event: ContractEventType;
  webhookKey: string;
  url: string;
  clientKey: string;
  contractKey: string;
  platformId: string;
}

/** What the dispatcher asks at each step of a delivery; the receiver faults answer. */
export interface ReceiverFaultHook {
  /** Before a first attempt leaves its lane: hold the delivery back until a later one overtakes it? */
  holdBack(target: FaultTarget): { hit: ReceiverFaultHit; sameContract: boolean; holdForMs: number } | undefined;
  /** Before a first attempt no outage answers: send it this long (real time) late? */
  delayFirst(target: FaultTarget): { hit: ReceiverFaultHit; delayMs: number } | undefined;
  /** As an attempt is signed: spoil the signature, or sign it `ageMs` before wall time? */
  spoilSigning(
    target: FaultTarget,
  ): { hit: ReceiverFaultHit; badSignature?: SignatureFault; ageMs?: number } | undefined;
  /** After a first attempt: send the same delivery again at once? */
  duplicate(target: FaultTarget): ReceiverFaultHit | undefined;
}

const SIGNATURE_DETAIL: Record<SignatureFault, string> = {
  'wrong-secret': 'signed with a wrong secret',
  corrupted: 'signature corrupted',
  missing: 'sent without a webhook-signature header',
};

type ActiveReceiverFault = Fault<ReceiverFaultSpec>;

export class ReceiverFaults implements ReceiverFaultHook {
  /** Kept across a restart (core/fault-set.ts); each tenant, and the sandbox, has its own ids (`rf_1` in each). */
  private readonly faults: FaultSet<ReceiverFaultSpec>;

  /** `defaultSeed`: the sandbox's --seed (default 1), for faults added without a seed of their own. */
  constructor(
    bus: EventBus,
    private readonly defaultSeed = 1,
    kept?: KeptState,
  ) {
    this.faults = new FaultSet<ReceiverFaultSpec>({
      name: 'receiver-faults',
      prefix: 'rf_',
      noun: 'A receiver fault',
      kept,
    });
    // Receiver faults belong to the sandbox, or to the tenant they were set for: a reset removes its own.
    bus.on('sandbox.reset', (e) => {
      if (e.platformId === undefined) this.clear();
      else this.clear(undefined, e.platformId);
    });
  }

  /** Adds a checked spec (control/faults.ts checks it); returns its id (409 if the id is taken). */
  add(spec: ReceiverFaultSpec, source = 'control', seed?: number, platformId?: string): string {
    return this.faults.add(spec, source, seed ?? this.defaultSeed, platformId).id;
  }

  /** Removes one fault of this tenant's ids (`platformId`), or of the sandbox's own. */
  remove(id: string, platformId?: string): boolean {
    return this.faults.remove(id, platformId);
  }

  /** Removes every fault, or those of one source, or of one tenant. Returns how many went. */
  clear(source?: string, platformId?: string): number {
    return this.faults.clear(source, platformId);
  }

  list(): ReceiverFaultView[] {
    return this.faults.all.map((f) => {
      const { id: _id, ...spec } = f.spec;
      return {
        id: f.id,
        source: f.source,
        ...(f.platformId !== undefined ? { platformId: f.platformId } : {}),
        ...spec,
        seen: f.seen,
        hits: f.hits,
        exhausted: exhausted(f),
      };
    });
  }

  get size(): number {
    return this.faults.size;
  }

  holdBack(target: FaultTarget) {
    const f = this.take(['out-of-order'], target);
    return f && { hit: hitOf(f), sameContract: f.spec.sameContract, holdForMs: durationOf(f.spec.holdFor) };
  }

  delayFirst(target: FaultTarget) {
    const f = this.take(['slow'], target);
    if (!f) return undefined;
    const delayMs = durationOf(f.spec.delay);
    return { hit: hitOf(f, `first attempt sent ${delayMs} ms (real time) late`), delayMs };
  }

  spoilSigning(target: FaultTarget) {
    const f = this.take(['bad-signature', 'stale-timestamp'], target);
    if (f?.spec.kind === 'bad-signature')
      return { hit: hitOf(f, SIGNATURE_DETAIL[f.spec.signature]), badSignature: f.spec.signature };
    if (f?.spec.kind === 'stale-timestamp') {
      const ageMs = durationOf(f.spec.age);
      return { hit: hitOf(f, `signed with a webhook-timestamp ${ageMs / 1000} s before wall time`), ageMs };
    }
    return undefined;
  }

  duplicate(target: FaultTarget): ReceiverFaultHit | undefined {
    const f = this.take(['duplicate'], target);
    return f && hitOf(f, 'the same webhook-id and body sent again right after the first attempt');
  }

  /**
   * The first live fault of one of `kinds` that matches the delivery and fires this time (probability), counted as
   * a hit; `undefined` when none does. Each call is one "seen" for every matching fault it reaches.
   */
  private take<K extends ReceiverFaultKind>(
    kinds: readonly K[],
    target: FaultTarget,
  ): (ActiveReceiverFault & { spec: Extract<ReceiverFaultSpec, { kind: K }> }) | undefined {
    if (this.faults.size === 0) return undefined;
    for (const f of this.faults.all) {
      if (!(kinds as readonly string[]).includes(f.spec.kind) || exhausted(f) || !matches(f, target)) continue;
      f.seen++;
      this.faults.changed(f);
      if (f.spec.probability !== undefined && !(f.random() < f.spec.probability)) continue;
      f.hits++;
      return f as ActiveReceiverFault & { spec: Extract<ReceiverFaultSpec, { kind: K }> };
    }
    return undefined;
  }
}

/** Milliseconds of a schema-checked duration. */
function durationOf(value: string | number): number {
  return parseDuration(value) ?? 0;
}

function hitOf(f: ActiveReceiverFault, detail?: string): ReceiverFaultHit {
  return { id: f.id, kind: f.spec.kind, source: f.source, ...(detail !== undefined ? { detail } : {}) };
}

function matches(f: ActiveReceiverFault, t: FaultTarget): boolean {
  if (f.platformId !== undefined && f.platformId !== t.platformId) return false;
  const m = f.spec.match;
  if (m.event !== undefined && !(Array.isArray(m.event) ? m.event.includes(t.event) : m.event === t.event))
    return false;
  if (m.webhookKey !== undefined && m.webhookKey !== t.webhookKey) return false;
  if (m.url !== undefined && m.url !== t.url) return false;
  if (m.clientKey !== undefined && m.clientKey !== t.clientKey) return false;
  if (m.contractKey !== undefined && m.contractKey !== t.contractKey) return false;
  return true;
}

function exhausted(f: ActiveReceiverFault): boolean {
  return f.spec.times !== undefined && f.hits >= f.spec.times;
}
