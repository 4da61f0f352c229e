/**
 * The scenario format's words for reactions and expectations (docs/scenarios.md): what a triggered step waits for
 * (`when:`), and what an `expect:` entry checks. schema.ts puts them into the scenario.
 */
import { z } from 'zod';
import { CONTRACT_EVENT_TYPES } from '../core/vocabulary.js';
import { duration, glob, keyPattern, optionalName, statusOrClass } from '../core/schemas.js';
import { moment, recipientMatch } from './matching.js';

/** The events a step can react to: the contract events, and three the sandbox notes besides. */
export const TRIGGER_EVENTS = [
  ...CONTRACT_EVENT_TYPES,
  'contract.archived',
  'token.created',
  'document.uploaded',
] as const;

export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/** The events that have an acting recipient, the only ones `recipient:` narrows. */
export const RECIPIENT_EVENTS: readonly TriggerEvent[] = ['contract.seen', 'contract.signed', 'contract.approved'];

const EVENT_HINT = `expected one of ${TRIGGER_EVENTS.join(', ')}`;

export const requestMatch = () =>
  z
    .strictObject({
      path: glob().optional().meta({ description: 'Glob on the /api path: "/api/contract", "/api/*".' }),
      action: optionalName('The operation: data.action (create, read, …), data.type, or the token body’s action.'),
      method: z.string().min(1).optional().meta({ description: 'HTTP method, e.g. POST.' }),
      status: statusOrClass().optional().meta({ description: 'What it was answered: 401, or a class like "4xx".' }),
    })
    .meta({ description: 'An /api request the integration made. Every field given must match.' });

export const deliveryMatch = () =>
  z
    .strictObject({
      event: z.enum(CONTRACT_EVENT_TYPES).optional().meta({ description: 'The event the delivery carries.' }),
      status: statusOrClass()
        .optional()
        .meta({ description: 'What an attempt was answered (default "2xx"); an outage’s status counts too.' }),
      webhook: keyPattern().optional().meta({ description: 'Only this webhookKey.' }),
    })
    .meta({ description: 'A webhook delivery attempt. Every field given must match.' });

const contractNarrowing = () =>
  z
    .strictObject({
      name: glob().optional().meta({ description: 'Contract name glob.' }),
      key: keyPattern().optional().meta({ description: 'contractKey.' }),
    })
    .meta({ description: 'Only events about this contract.' });

/** What a reaction waits for, or after what an expectation counts: an event, a request, or a step having run. */
export const trigger = () =>
  z
    .union(
      [
        z.enum(TRIGGER_EVENTS),
        z
          .strictObject({
            event: z.enum(TRIGGER_EVENTS, { error: EVENT_HINT }).optional(),
            request: requestMatch().optional(),
            step: optionalName('The id of a timeline step of this scenario: once it has run.'),
            recipient: recipientMatch().optional().meta({
              description: 'Only when this recipient acted ({position: 2}, {email: …}): seen, signed, approved.',
            }),
            contract: contractNarrowing().optional(),
            client: keyPattern()
              .optional()
              .meta({ description: 'Only events of this clientKey’s contracts or tokens.' }),
          })
          .superRefine((t, ctx) => {
            const kinds = (['event', 'request', 'step'] as const).filter((k) => t[k] !== undefined);
            if (kinds.length !== 1)
              ctx.addIssue({
                code: 'custom',
                path: [],
                message: kinds.length
                  ? `expected one of event, request, step, got ${kinds.join(' and ')}`
                  : 'expected event, request or step',
              });
            const narrowed = (['recipient', 'contract', 'client'] as const).filter((k) => t[k] !== undefined);
            if (t.event === undefined && narrowed.length)
              ctx.addIssue({
                code: 'custom',
                path: [narrowed[0]!],
                message: `${narrowed[0]} narrows an event; a request or step is not narrowed`,
              });
            if (t.recipient !== undefined && t.event !== undefined && !RECIPIENT_EVENTS.includes(t.event))
              ctx.addIssue({
                code: 'custom',
                path: ['recipient'],
                message: `recipient narrows ${RECIPIENT_EVENTS.join(', ')} only (the events with an acting recipient)`,
              });
            if (t.contract !== undefined && t.event === 'token.created')
              ctx.addIssue({ code: 'custom', path: ['contract'], message: 'a token is not about a contract' });
          }),
      ],
      { error: `expected an event name (${TRIGGER_EVENTS.join(', ')}) or a mapping with event, request or step` },
    )
    .meta({
      description:
        'An event name ("contract.signed"), or {event, recipient?, contract?, client?}, {request: {path, action}}, or {step: <id>}.',
    });

export const EXPECT_KINDS = ['request', 'delivery', 'contract', 'noRequest', 'noDelivery'] as const;

export const expectation = () =>
  z
    .strictObject({
      id: z.string().min(1).optional().meta({ description: 'Names it in the report (default: expect-<n>).' }),
      request: requestMatch().optional().meta({ description: 'Met once the integration made such a request.' }),
      delivery: deliveryMatch()
        .optional()
        .meta({ description: 'Met once such a webhook delivery attempt was answered.' }),
      contract: z
        .strictObject({
          name: glob().optional().meta({ description: 'Contract name glob.' }),
          key: keyPattern().optional().meta({ description: 'contractKey.' }),
          status: z.string().min(1).meta({ description: 'A contract status: Sent, Seen, Signed, Fully signed, …' }),
        })
        .optional()
        .meta({ description: 'Met once a matching contract reached this status.' }),
      noRequest: requestMatch()
        .optional()
        .meta({ description: 'Failed as soon as such a request is made; met if none is made (by the deadline).' }),
      noDelivery: deliveryMatch()
        .optional()
        .meta({ description: 'Failed as soon as such a delivery attempt is answered; met otherwise.' }),
      after: trigger().optional().meta({ description: 'Only what happens after this (its first time) counts.' }),
      by: moment().optional().meta({ description: 'The deadline: a duration after load, or an ISO 8601 time.' }),
      within: duration().optional().meta({ description: 'The deadline, counted from `after`.' }),
    })
    .superRefine((e, ctx) => {
      const kinds = EXPECT_KINDS.filter((k) => e[k] !== undefined);
      if (kinds.length !== 1)
        ctx.addIssue({
          code: 'custom',
          path: [],
          message:
            kinds.length === 0
              ? `expected one condition: one of ${EXPECT_KINDS.join(', ')}`
              : `expected one condition per entry, got ${kinds.join(' and ')}; split them`,
        });
      if (e.within !== undefined && e.after === undefined)
        ctx.addIssue({ code: 'custom', path: ['within'], message: 'within counts from after: give after too' });
    })
    .meta({ description: 'One thing the integration under test must do (or never do), by a deadline.' });
