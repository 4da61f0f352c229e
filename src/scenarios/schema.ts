/**
 * The scenario file format: the single source of truth. Loading validates against it, and
 * `scenarios/scenario.schema.json` (for editors) is generated from it (`npm run schema`).
 *
 * Every object is strict: an unknown key is an error, so a typo never silently turns a rule off.
 * Keys that pick "one of several kinds" (a timeline step's action) are checked with refinements, which the
 * JSON Schema does not carry; the loader reports them with the same line:column messages.
 */
import { z } from 'zod';
import { rateLimit } from '../core/rate-limit.js';
import { RECIPIENT_ROLES } from '../core/vocabulary.js';
import { duration, keyPattern, optionalName, statusCode } from '../core/schemas.js';
import { tenantKey } from './tenant-key.js';
import { isoTime, moment, recipientMatch } from './matching.js';
import { expectation, trigger } from './reaction-schema.js';
import { faultSpec } from '../api-faults/spec.js';
import { receiverFaultSpec } from '../webhooks/receiver-fault-spec.js';
import { clientFixture, contractFixture } from '../fixtures/schema.js';
import { lazy } from '../core/lazy.js';

export { recipientMatch, type RecipientMatch } from './matching.js';

export const recipientRule = () =>
  z
    .strictObject({
      id: optionalName('Names the rule in history entries and the delivery log (default: rule-<n>).'),
      match: recipientMatch().default({}),
      view: duration().optional().meta({ description: 'Views the contract this long after being notified.' }),
      sign: duration().optional().meta({ description: 'Signs this long after being notified (sign recipients only).' }),
      approve: duration()
        .optional()
        .meta({ description: 'Approves this long after being notified (approve recipients only).' }),
      lock: duration().optional().meta({ description: 'Locks this long after being notified (lock recipients only).' }),
      act: duration().optional().meta({
        description: 'Does whatever its role is (sign, approve, lock or view) this long after being notified.',
      }),
      never: z.literal(true).optional().meta({ description: 'The recipient never acts: no later rule applies to it.' }),
    })
    .superRefine((rule, ctx) => {
      const verbs = ([...RECIPIENT_ROLES, 'act'] as const).filter((v) => rule[v] !== undefined);
      if (rule.never && verbs.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['never'],
          message: `never: true cannot be combined with ${verbs.join(', ')}`,
        });
      }
      if (!rule.never && verbs.length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: 'expected at least one of view, sign, approve, lock, act (a duration) or never: true',
        });
      }
    })
    .meta({
      description:
        'What matching recipients do, and when, in sandbox time after they are notified. The first matching rule wins.',
    });

export const tokenSelector = () =>
  z
    .union([z.enum(['all', 'platform']), z.strictObject({ client: keyPattern() })], {
      error: 'expected "all", "platform" or {client: <clientKey>}',
    })
    .meta({ description: '"all" tokens, "platform" tokens, or {client: <clientKey>} for one client’s tokens.' });

export const webhookOutage = () =>
  z
    .strictObject({
      id: z.string().min(1).optional().meta({ description: 'Names the outage (endWebhookOutage can end it by id).' }),
      for: duration()
        .optional()
        .meta({ description: 'How long the receiver is down (sandbox time). Without it, until endWebhookOutage.' }),
      status: statusCode().optional().meta({ description: 'The receiver answers this status (default 503).' }),
      retryAfter: z
        .number()
        .int()
        .min(0)
        .optional()
        .meta({ description: 'Retry-After seconds the receiver sends with the status.' }),
      refuse: z.literal(true).optional().meta({ description: 'The connection is refused instead of answered.' }),
      webhook: keyPattern().optional().meta({ description: 'Only this webhookKey.' }),
      url: z.string().min(1).optional().meta({ description: 'Only webhooks with this URL.' }),
      client: keyPattern().optional().meta({ description: 'Only this client’s webhooks.' }),
    })
    .superRefine((o, ctx) => {
      if (o.refuse && o.status !== undefined)
        ctx.addIssue({ code: 'custom', path: ['refuse'], message: 'refuse: true and status cannot be combined' });
    })
    .meta({
      description: 'Webhook receivers go down: every delivery attempt fails with a status or a refused connection.',
    });

export const newContract = () =>
  contractFixture()
    .extend({
      client: keyPattern().optional().meta({ description: 'clientKey (default: the sandbox’s default client).' }),
    })
    .meta({ description: 'A contract created (and with send: true, sent) as by the API.' });

export const STEP_KINDS = [
  'expireTokens',
  'revokeTokens',
  'webhookOutage',
  'endWebhookOutage',
  'settings',
  'act',
  'createContract',
  'sendContract',
  'addFaults',
  'clearFaults',
  'addReceiverFaults',
  'clearReceiverFaults',
] as const;

type StepKind = (typeof STEP_KINDS)[number];

/** When a step runs: at a time, or in reaction to a trigger (with after and times); and its name. */
const stepTiming = () => ({
  at: moment().optional(),
  when: trigger()
    .optional()
    .meta({ description: 'Instead of at: run in reaction to this event, request or step (docs/scenarios.md).' }),
  after: duration().optional().meta({ description: 'With when: this long after the trigger (default: at once).' }),
  times: z
    .union([z.number().int().min(1), z.literal('every')], { error: 'expected a whole number from 1, or "every"' })
    .optional()
    .meta({ description: 'With when: how many triggers it reacts to (default 1), or "every".' }),
  id: optionalName('Names the step in history entries and the delivery log (default: step-<n>).'),
});

/** What a step does: exactly one of these (STEP_KINDS), checked by `checkStep`. */
const stepActions = () => ({
  expireTokens: tokenSelector()
    .optional()
    .meta({ description: 'Tokens expire now (their next use answers 401 Token expired).' }),
  revokeTokens: tokenSelector().optional().meta({ description: 'Tokens are revoked now (401 Token revoked).' }),
  webhookOutage: webhookOutage().optional(),
  endWebhookOutage: z
    .union([z.literal(true), z.string().min(1)])
    .optional()
    .meta({ description: 'true ends every outage this scenario started; a string ends the outage with that id.' }),
  settings: z
    .strictObject({
      client: keyPattern().optional().meta({ description: 'clientKey (default: the default client).' }),
      notification: z.strictObject({ approved: z.boolean().optional(), signed: z.boolean().optional() }),
    })
    .optional()
    .meta({ description: 'Changes a client’s email notification settings, as /api/settings does.' }),
  act: z
    .strictObject({
      match: recipientMatch(),
      verb: z.enum([...RECIPIENT_ROLES, 'act']).meta({ description: '"act" does whatever each recipient’s role is.' }),
    })
    .optional()
    .meta({ description: 'Matching notified recipients act now.' }),
  createContract: newContract().optional(),
  sendContract: z
    .strictObject({ contract: z.string().min(1).meta({ description: 'contractKey or exact contract name.' }) })
    .optional()
    .meta({ description: 'Sends an existing contract to its recipients.' }),
  addFaults: z.array(faultSpec()).min(1).optional().meta({ description: 'Adds API faults now.' }),
  clearFaults: z.literal(true).optional().meta({ description: 'Removes every fault this scenario added.' }),
  addReceiverFaults: z.array(receiverFaultSpec()).min(1).optional().meta({
    description:
      'Spoils matching webhook deliveries from now on, to test the receiver (docs/webhooks.md, receiver faults).',
  }),
  clearReceiverFaults: z
    .literal(true)
    .optional()
    .meta({ description: 'Removes every receiver fault this scenario added.' }),
});

/** A step runs at a time or in reaction (after and times only with `when`), and does exactly one thing. */
function checkStep(
  step: { at?: unknown; when?: unknown; after?: unknown; times?: unknown } & Partial<Record<StepKind, unknown>>,
  ctx: z.RefinementCtx,
): void {
  if ((step.at === undefined) === (step.when === undefined))
    ctx.addIssue({
      code: 'custom',
      path: [],
      message:
        step.at === undefined
          ? 'expected "at" (a time) or "when" (a trigger)'
          : '"at" and "when" cannot be combined: a step runs at a time or in reaction',
    });
  for (const key of ['after', 'times'] as const)
    if (step[key] !== undefined && step.when === undefined)
      ctx.addIssue({ code: 'custom', path: [key], message: `${key} goes with "when" (a triggered step)` });
  const kinds = STEP_KINDS.filter((k) => step[k] !== undefined);
  if (kinds.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: [],
      message:
        kinds.length === 0
          ? `expected one action besides "at"/"when": one of ${STEP_KINDS.join(', ')}`
          : `expected exactly one action per step, got ${kinds.join(' and ')}; split them into steps with the same "at"`,
    });
  }
}

export const timelineStep = () =>
  z
    .strictObject({ ...stepTiming(), ...stepActions() })
    .superRefine(checkStep)
    .meta({
      description:
        'A step at a sandbox time (at), or in reaction to an event (when, after, times): exactly one action besides these and id.',
    });

const dataClient = () =>
  clientFixture().meta({
    description: 'A client to create, or, if clientKey names an existing client, records to add to it.',
  });

/** A scenario's name, in causes and URLs. */
const scenarioName = () =>
  z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]*$/,
      'expected lower-case letters, digits, ".", "_" and "-", starting with a letter or digit',
    )
    .meta({
      description: 'The scenario’s name: it appears in causes (scenario:<name>:<rule or step>) and unloads it.',
    });

/** `{step: <id>}`, in a step's `when` or an expectation's `after`, must name a step of this scenario, or it would wait for ever. */
function checkStepNames(
  s: {
    timeline?: { id?: string | undefined; when?: Trigger | undefined }[] | undefined;
    expect?: { after?: Trigger | undefined }[] | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const ids = (s.timeline ?? []).map((step, i) => step.id ?? `step-${i + 1}`);
  const check = (t: Trigger | undefined, path: (string | number)[]) => {
    if (typeof t === 'object' && t.step !== undefined && !ids.includes(t.step))
      ctx.addIssue({
        code: 'custom',
        path: [...path, 'step'],
        message: `no step "${t.step}" in this scenario's timeline; its steps: ${ids.join(', ') || 'none'}`,
      });
  };
  s.timeline?.forEach((step, i) => {
    check(step.when, ['timeline', i, 'when']);
  });
  s.expect?.forEach((e, i) => {
    check(e.after, ['expect', i, 'after']);
  });
}

export const scenarioSchema = lazy(() =>
  z
    .strictObject({
      $schema: z.string().optional(),
      name: scenarioName(),
      description: z.string().optional().meta({ description: 'What the scenario reproduces.' }),
      tenant: tenantKey(),
      seed: z.number().int().optional().meta({
        description:
          'Seeds fault probabilities; loaded at start without --seed, also the sandbox’s keys (docs/scenarios.md).',
      }),
      clock: z
        .strictObject({
          start: isoTime().optional().meta({ description: 'Sandbox time when the scenario starts.' }),
          frozen: z
            .boolean()
            .optional()
            .meta({ description: 'true: time stands still until advanced; false: it follows wall time.' }),
        })
        .optional()
        .meta({
          description: 'The sandbox clock. At start it sets the clock; loaded at run time, see docs/scenarios.md.',
        }),
      data: z
        .strictObject({
          platform: optionalName('apiKey of the platform to add to (default: the default platform).'),
          clients: z.array(dataClient()).optional(),
        })
        .optional()
        .meta({ description: 'Seed data added when the scenario loads, as if created through the API.' }),
      recipients: z
        .array(recipientRule())
        .optional()
        .meta({ description: 'Recipient behaviour rules; the first matching rule wins.' }),
      timeline: z
        .array(timelineStep())
        .optional()
        .meta({ description: 'Steps at sandbox times, or in reaction to what happens.' }),
      faults: z.array(faultSpec()).optional().meta({ description: 'API faults active while the scenario is loaded.' }),
      rateLimit: rateLimit().optional().meta({
        description:
          'A quota like a test mode while the scenario is loaded, per API key: "10/min", "2/s", "500/h" (docs/readiness.md).',
      }),
      receiverFaults: z.array(receiverFaultSpec()).optional().meta({
        description:
          'Receiver faults (bad signature, stale timestamp, duplicate, out of order, slow) active while the scenario is loaded.',
      }),
      expect: z
        .array(expectation())
        .optional()
        .meta({ description: 'What the integration under test must do; each reported as met, pending or failed.' }),
    })
    .superRefine(checkStepNames)
    .meta({ title: 'esign-sandbox scenario', description: 'A scenario for esign-sandbox: see docs/scenarios.md.' }),
);

export type Scenario = z.infer<ReturnType<typeof scenarioSchema>>;
export type RecipientRule = z.infer<ReturnType<typeof recipientRule>>;
export type TimelineStep = z.infer<ReturnType<typeof timelineStep>>;
export type Expectation = z.infer<ReturnType<typeof expectation>>;
export type Trigger = z.infer<ReturnType<typeof trigger>>;

/** The JSON Schema editors use (draft 2020-12), from the zod schema. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(scenarioSchema(), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/** The checked-in file's exact text: two-space JSON with a trailing newline. */
export function scenarioJsonSchemaText(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}
