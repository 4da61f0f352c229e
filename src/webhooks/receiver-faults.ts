/**
 * Receiver faults: deliveries that test a webhook *handler*, the ones a provider sends on a bad day
 * (docs/webhooks.md, "Receiver faults"). The dispatcher asks this registry, attempt by attempt, whether a fault
 * applies, and records each hit in the delivery log with the fault's id and kind.
 *
 * | kind              | what the receiver gets                                                        | hits        |
 * |-------------------|-------------------------------------------------------------------------------|-------------|
 * | `bad-signature`   | a signature made with a wrong secret, corrupted, or missing                   | any attempt |
 * | `stale-timestamp` | a correct signature over a `webhook-timestamp` `age` older than wall time      | any attempt |
 * | `duplicate`       | the first attempt, then at once a second copy (same `webhook-id` and body)    | first attempt |
 * | `out-of-order`    | the delivery held back until the next one to the endpoint has gone out        | first attempt |
 * | `slow`            | the first attempt sent `delay` of real (wall) time late; the lane waits        | first attempt |
 *
 * The spec's zod schema lives here so the control API and scenarios can reuse it. Probabilities draw from a
 * random source seeded per fault (the given seed, default 1, mixed with the fault's id), so runs repeat exactly.
 */
import { z } from 'zod';
import { parseDuration } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { CONTRACT_EVENT_TYPES, type ContractEventType } from '../core/vocabulary.js';
import { hashSeed, seededRandom } from '../core/ids.js';
import { lazy } from '../core/lazy.js';

export const RECEIVER_FAULT_KINDS = ['bad-signature', 'stale-timestamp', 'duplicate', 'out-of-order', 'slow'] as const;
export type ReceiverFaultKind = (typeof RECEIVER_FAULT_KINDS)[number];

/** The verifiers' tolerance (standardwebhooks, svix): a stale timestamp must be older than this to be refused. */
export const VERIFIER_TOLERANCE_MS = 5 * 60_000;
/** The longest `slow` delay: it is real time, and `clock.advance()` waits for it. */
export const MAX_SLOW_DELAY_MS = 10 * 60_000;

const DURATION_PATTERN = /^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/;
const DURATION_HINT = 'expected a duration like "500ms", "90s", "10m", "2h" or a number of seconds';

const duration = () =>
  z.union([z.number().min(0), z.string().regex(DURATION_PATTERN, DURATION_HINT)], { error: DURATION_HINT });
const eventType = () => z.enum(CONTRACT_EVENT_TYPES);

/** Which deliveries a receiver fault hits. Every given field must match; `{}` matches every delivery. */
export const receiverFaultMatch = () =>
  z
    .strictObject({
      event: z
        .union([eventType(), z.array(eventType()).min(1)], {
          error: `expected one of ${CONTRACT_EVENT_TYPES.join(', ')}, or a list of them`,
        })
        .optional()
        .meta({ description: 'Event type(s), e.g. "contract.signed".' }),
      webhookKey: z.string().min(1).optional().meta({ description: 'Only deliveries to this webhook.' }),
      url: z.string().min(1).optional().meta({ description: 'Only deliveries to this URL (exactly as registered).' }),
      clientKey: z.string().min(1).optional().meta({ description: 'Only deliveries of this client’s events.' }),
      contractKey: z.string().min(1).optional().meta({ description: 'Only deliveries about this contract.' }),
    })
    .meta({ description: 'Which deliveries the fault hits. Every field given must match; {} hits all of them.' });

const common = () => ({
  id: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Names the fault in the delivery log and the fault list (default rf_<n>).' }),
  match: receiverFaultMatch().default({}),
  times: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: 'Hit this many times (attempts or deliveries, by kind), then stop. Default: no limit.' }),
  probability: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .meta({ description: 'Hit each matching one with this probability (seeded: runs repeat exactly).' }),
});

/** One receiver fault, as the dispatcher, the control API and scenarios take it. */
export const receiverFaultSpec = lazy(() =>
  z
    .discriminatedUnion(
      'kind',
      [
        z.strictObject({
          kind: z.literal('bad-signature'),
          ...common(),
          signature: z.enum(['wrong-secret', 'corrupted', 'missing']).default('wrong-secret').meta({
            description: 'Signed with a wrong secret (default), a corrupted signature, or no webhook-signature header.',
          }),
        }),
        z.strictObject({
          kind: z.literal('stale-timestamp'),
          ...common(),
          age: duration().default('10m').meta({
            description:
              'How far before wall time the signed webhook-timestamp lies (default 10m; verifiers allow 5m).',
          }),
        }),
        z.strictObject({ kind: z.literal('duplicate'), ...common() }),
        z.strictObject({
          kind: z.literal('out-of-order'),
          ...common(),
          sameContract: z.boolean().default(true).meta({
            description: 'Only a later delivery about the same contract overtakes the held one (default true).',
          }),
          holdFor: duration().default('1m').meta({
            description:
              'Sandbox time after which a held delivery goes out anyway if nothing overtook it (default 1m).',
          }),
        }),
        z.strictObject({
          kind: z.literal('slow'),
          ...common(),
          delay: duration().meta({
            description: 'Real (wall-clock) time the first attempt waits before it is sent, at most 10m.',
          }),
        }),
      ],
      { error: `expected kind to be one of ${RECEIVER_FAULT_KINDS.join(', ')}` },
    )
    .superRefine((spec, ctx) => {
      // Only durations that parsed: an unreadable one has its own issue already.
      const ms =
        spec.kind === 'slow'
          ? parseDuration(spec.delay)
          : spec.kind === 'stale-timestamp'
            ? parseDuration(spec.age)
            : undefined;
      if (spec.kind === 'slow' && ms !== undefined && ms > MAX_SLOW_DELAY_MS) {
        ctx.addIssue({ code: 'custom', path: ['delay'], message: 'expected at most 10m (the delay is real time)' });
      }
      if (spec.kind === 'stale-timestamp' && ms !== undefined && ms <= 0) {
        ctx.addIssue({ code: 'custom', path: ['age'], message: 'expected a positive age' });
      }
    })
    .meta({
      description: 'A receiver fault: deliveries that test a webhook handler (docs/webhooks.md, "Receiver faults").',
    }),
);

export type ReceiverFaultSpec = z.output<ReturnType<typeof receiverFaultSpec>>;
export type ReceiverFaultInput = z.input<ReturnType<typeof receiverFaultSpec>>;
export type ReceiverFaultMatch = z.output<ReturnType<typeof receiverFaultMatch>>;

/** What the registry shows: the spec (defaults filled in) and how often it fired. */
export type ReceiverFaultView = Omit<ReceiverFaultSpec, 'id'> & {
  id: string;
  /** `control` by default; scenarios pass `scenario:<name>`. */
  source: string;
  /** Matching attempts/deliveries seen, and how many the fault hit. */
  seen: number;
  hits: number;
  /** `times` hits have been used up: the fault no longer fires. */
  exhausted: boolean;
};

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

export interface ActiveReceiverFault {
  id: string;
  source: string;
  spec: ReceiverFaultSpec;
  random: () => number;
  seen: number;
  hits: number;
}

export class ReceiverFaults {
  private readonly active: ActiveReceiverFault[] = [];
  private counter = 0;

  /** `defaultSeed`: the sandbox's --seed (default 1), for faults added without a seed of their own. */
  constructor(private readonly defaultSeed = 1) {}

  /** Adds a checked spec (control/faults.ts checks it); returns its id (409 if the id is taken). */
  add(spec: ReceiverFaultSpec, source = 'control', seed?: number): string {
    let id = spec.id;
    if (id === undefined) {
      do id = `rf_${++this.counter}`;
      while (this.active.some((f) => f.id === id));
    }
    if (this.active.some((f) => f.id === id))
      throw ApiError.conflict(`A receiver fault with id "${id}" is already set; remove it first or pick another id`);
    this.active.push({
      id,
      source,
      spec,
      random: seededRandom(hashSeed(seed ?? this.defaultSeed, id)),
      seen: 0,
      hits: 0,
    });
    return id;
  }

  remove(id: string): boolean {
    const i = this.active.findIndex((f) => f.id === id);
    if (i < 0) return false;
    this.active.splice(i, 1);
    return true;
  }

  /** Removes every fault, or those of one source. Returns how many went. */
  clear(source?: string): number {
    let gone = 0;
    for (let i = this.active.length - 1; i >= 0; i--) {
      if (source === undefined || this.active[i]!.source === source) {
        this.active.splice(i, 1);
        gone++;
      }
    }
    return gone;
  }

  list(): ReceiverFaultView[] {
    return this.active.map((f) => {
      const { id: _id, ...spec } = f.spec;
      return {
        id: f.id,
        source: f.source,
        ...spec,
        seen: f.seen,
        hits: f.hits,
        exhausted: exhausted(f),
      };
    });
  }

  get size(): number {
    return this.active.length;
  }

  /**
   * The first live fault of one of `kinds` that matches the delivery and fires this time (probability), counted as
   * a hit; `undefined` when none does. Each call is one "seen" for every matching fault it reaches.
   */
  take<K extends ReceiverFaultKind>(
    kinds: readonly K[],
    target: FaultTarget,
  ): (ActiveReceiverFault & { spec: Extract<ReceiverFaultSpec, { kind: K }> }) | undefined {
    if (this.active.length === 0) return undefined;
    for (const f of this.active) {
      if (!(kinds as readonly string[]).includes(f.spec.kind) || exhausted(f) || !matches(f, target)) continue;
      f.seen++;
      if (f.spec.probability !== undefined && !(f.random() < f.spec.probability)) continue;
      f.hits++;
      return f as ActiveReceiverFault & { spec: Extract<ReceiverFaultSpec, { kind: K }> };
    }
    return undefined;
  }
}

/** Milliseconds of a schema-checked duration. */
export function faultDurationMs(value: string | number): number {
  return parseDuration(value) ?? 0;
}

function matches(f: ActiveReceiverFault, t: FaultTarget): boolean {
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
