/**
 * The receiver fault spec (docs/webhooks.md, "Receiver faults"): deliveries that test a webhook *handler*, the ones
 * a provider sends on a bad day. The registry and the hook the dispatcher calls are in receiver-faults.ts.
 *
 * | kind              | what the receiver gets                                                        | hits        |
 * |-------------------|-------------------------------------------------------------------------------|-------------|
 * | `bad-signature`   | a signature made with a wrong secret, corrupted, or missing                   | any attempt |
 * | `stale-timestamp` | a correct signature over a `webhook-timestamp` `age` older than wall time      | any attempt |
 * | `duplicate`       | the first attempt, then at once a second copy (same `webhook-id` and body)    | first attempt |
 * | `out-of-order`    | the delivery held back until the next one to the endpoint has gone out        | first attempt |
 * | `slow`            | the first attempt sent `delay` of real (wall) time late; the lane waits        | first attempt |
 *
 * The spec's zod schema lives here so the control API, scenarios and OpenAPI use the same one.
 */
import { z } from 'zod';
import { parseDuration } from '../core/duration.js';
import { duration } from '../core/schemas.js';
import { CONTRACT_EVENT_TYPES } from '../core/vocabulary.js';
import { lazy } from '../core/lazy.js';

export const RECEIVER_FAULT_KINDS = ['bad-signature', 'stale-timestamp', 'duplicate', 'out-of-order', 'slow'] as const;
export type ReceiverFaultKind = (typeof RECEIVER_FAULT_KINDS)[number];

/** The longest `slow` delay: it is real time, and `clock.advance()` waits for it. */
export const MAX_SLOW_DELAY_MS = 10 * 60_000;

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
/** A receiver fault as you write it (docs/webhooks.md, "Receiver faults"). */
export type ReceiverFaultInput = z.input<ReturnType<typeof receiverFaultSpec>>;

/** What the registry shows: the spec (defaults filled in) and how often it fired. */
export type ReceiverFaultView = Omit<ReceiverFaultSpec, 'id'> & {
  id: string;
  /** `control` by default; scenarios pass `scenario:<name>`. */
  source: string;
  /** The tenant it was set for (scoped): it touches only that platform's deliveries. */
  platformId?: string;
  /** Matching attempts/deliveries seen, and how many the fault hit. */
  seen: number;
  hits: number;
  /** `times` hits have been used up: the fault no longer fires. */
  exhausted: boolean;
};
