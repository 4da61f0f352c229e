/**
 * The /__sandbox operations as the OpenAPI document shows them. Request schemas are the very zod schemas the
 * control routes validate with; a test checks that every control route mounted on the app is listed here. The
 * fault lists are in control-faults.ts, the dashboard's routes in pages.ts.
 */
import { z } from 'zod';
import {
  actBody,
  advanceBody,
  deliveryQuery,
  expireBody,
  journalQuery,
  loadBody,
  platformBody,
  resetBody,
  setBody,
} from '../control/schemas.js';
import { snapshotSchema } from '../store/snapshot.js';
import { emptyData } from '../store/records.js';
import { apiFaultOperations, receiverFaultOperations } from './control-faults.js';
import type { ControlOperation } from './control-operation.js';
import { pageOperations } from './pages.js';

export type { ControlOperation } from './control-operation.js';

const NOW = '2026-03-01T09:00:00.000Z';
const clockState = { now: NOW, mode: 'frozen', pendingTimers: 0 };
const delivery = {
  id: 'dlv_1a2b3c',
  webhookId: 'msg_4d5e6f',
  webhookKey: 'W1a2b3c',
  url: 'http://127.0.0.1:9000/hooks',
  event: 'contract.signed',
  status: 'delivered',
  contractKey: 'C1a2b3',
  clientKey: 'demoClient',
  cause: 'api',
  createdAt: NOW,
  attempts: [{ at: NOW, trigger: 'first', statusCode: 200, durationMs: 3.2 }],
  payload: {
    type: 'contract.signed',
    timestamp: NOW,
    data: { contractKey: 'C1a2b3', clientKey: 'demoClient', recipientKey: 'R1a2b3', status: 'Signed' },
  },
};
export const controlOperations: ControlOperation[] = [
  {
    method: 'get',
    path: '/__sandbox',
    summary: 'Where everything is: the dashboard, the API, the control API, the docs (GET / leads to the dashboard)',
    response: {
      status: 200,
      example: {
        name: 'esign-sandbox',
        message:
          'A local sandbox of the Contract Signing Service API. The API is under /api, the sandbox control API under /__sandbox.',
        dashboard: 'http://127.0.0.1:4010/__sandbox/ui',
        api: 'http://127.0.0.1:4010/api',
        control: 'http://127.0.0.1:4010/__sandbox',
        health: 'http://127.0.0.1:4010/__sandbox/health',
        docs: 'http://127.0.0.1:4010/docs',
        openapi: 'http://127.0.0.1:4010/openapi.json',
      },
    },
  },
  {
    method: 'get',
    path: '/__sandbox/health',
    summary: 'Ready check: answers 200 once the sandbox serves requests',
    response: {
      status: 200,
      example: {
        status: 'ok',
        version: '0.1.0',
        now: NOW,
        clock: 'frozen',
        persistent: false,
        counts: { platforms: 1, clients: 1, contracts: 0, webhooks: 0 },
      },
    },
  },
  {
    method: 'post',
    path: '/__sandbox/reset',
    summary: 'Back to the seeded state; with apiKey, only that platform (tenant)',
    description:
      'Without a body everything goes back to the fixtures: records, timers, emails, deliveries and the journal. With `{"apiKey": ...}` only that platform\'s records are reset (to its fixture records, or to none for a platform made with POST /__sandbox/platforms); other platforms are untouched.',
    body: resetBody(),
    example: { apiKey: 'sandboxApiKey' },
    response: {
      status: 200,
      example: {
        status: 'reset',
        scope: 'platform',
        apiKey: 'sandboxApiKey',
        platformId: 'P1a2b3c',
        removed: 12,
        restored: 9,
        now: NOW,
      },
    },
  },
  {
    method: 'get',
    path: '/__sandbox/clock',
    summary: 'The sandbox clock: time, mode and pending timers',
    response: { status: 200, example: clockState },
  },
  {
    method: 'post',
    path: '/__sandbox/clock/advance',
    summary: 'Move sandbox time forward, running every timer that falls due; answers once their work has settled',
    body: advanceBody(),
    example: { by: '30m' },
    response: { status: 200, example: { ...clockState, now: '2026-03-01T09:30:00.000Z' } },
  },
  {
    method: 'post',
    path: '/__sandbox/clock/freeze',
    summary: 'Stop the clock',
    response: { status: 200, example: clockState },
  },
  {
    method: 'post',
    path: '/__sandbox/clock/unfreeze',
    summary: 'Let the clock follow wall time again',
    response: { status: 200, example: { ...clockState, mode: 'real' } },
  },
  {
    method: 'post',
    path: '/__sandbox/clock/set',
    summary: 'Jump to a time; forward jumps run the timers on the way',
    body: setBody(),
    example: { to: '2026-03-02T09:00:00Z' },
    response: { status: 200, example: { ...clockState, now: '2026-03-02T09:00:00.000Z' } },
  },
  {
    method: 'post',
    path: '/__sandbox/tokens/expire',
    summary: 'Force-expire one token, or every live token when none is named',
    body: expireBody(),
    example: {},
    response: { status: 200, example: { expired: 3 } },
  },
  {
    method: 'post',
    path: '/__sandbox/platforms',
    summary: 'A new isolated platform account (tenant), e.g. one per test file',
    body: platformBody(),
    example: { name: 'contract tests' },
    response: { status: 201, example: { platformId: 'P1a2b3c', apiKey: 'pkA1b2C3', secret: 'skD4e5F6' } },
  },
  {
    method: 'get',
    path: '/__sandbox/requests',
    summary: 'The request journal: what was asked and answered, secrets redacted',
    description:
      'Oldest first; at most the journal capacity (default 1000, `--journal-limit`) entries are kept. Bodies over 64 KiB are kept as `{"truncated": true, "bytes": N}`.',
    query: journalQuery(),
    response: {
      status: 200,
      example: {
        requests: [
          {
            id: 7,
            at: NOW,
            method: 'POST',
            path: '/api/contract',
            action: 'create',
            status: 201,
            durationMs: 1.9,
            request: {
              headers: { authorization: '[redacted]', 'content-type': 'application/json' },
              body: { data: { action: 'create', contract: { name: 'NDA', value: '<p>…</p>' } } },
            },
            response: {
              body: { contract: { createTime: NOW, contractKey: 'C1a2b3' }, code: '201', message: 'Contract created' },
            },
          },
        ],
        count: 1,
        capacity: 1000,
      },
    },
  },
  {
    method: 'delete',
    path: '/__sandbox/requests',
    summary: "Empty the journal, or only one platform's entries",
    query: z.object({ apiKey: z.string().optional() }),
    response: { status: 200, example: { cleared: 'all' } },
  },
  {
    method: 'get',
    path: '/__sandbox/state',
    summary: 'The whole state (every record and the clock) as one snapshot document',
    response: {
      status: 200,
      example: {
        format: 'esign-sandbox-state',
        version: 1,
        savedAt: NOW,
        clock: { now: NOW, mode: 'frozen' },
        store: { version: 1, platforms: {}, clients: {} },
      },
    },
  },
  {
    method: 'put',
    path: '/__sandbox/state',
    summary: 'Restore a snapshot taken with GET /__sandbox/state (validated first; refused whole when wrong)',
    body: snapshotSchema(),
    example: { version: 1, clock: { now: NOW, mode: 'frozen' }, store: emptyData() },
    response: {
      status: 200,
      example: { status: 'restored', counts: { platforms: 1, clients: 1, contracts: 4 }, now: NOW },
    },
  },
  {
    method: 'get',
    path: '/__sandbox/webhook-deliveries',
    summary: 'The webhook delivery log: every delivery with its attempts and next retry (docs/webhooks.md)',
    query: deliveryQuery(),
    response: { status: 200, example: { deliveries: [delivery] } },
  },
  {
    method: 'get',
    path: '/__sandbox/webhook-deliveries/{id}',
    summary: 'One webhook delivery',
    response: { status: 200, example: delivery },
  },
  {
    method: 'post',
    path: '/__sandbox/webhook-deliveries/{id}/redeliver',
    summary: 'Send a delivery again at once, with the same webhook-id',
    response: {
      status: 200,
      example: {
        ...delivery,
        attempts: [...delivery.attempts, { at: NOW, trigger: 'redeliver', statusCode: 200, durationMs: 2.1 }],
      },
    },
  },
  ...receiverFaultOperations,
  {
    method: 'post',
    path: '/__sandbox/recipients/{recipientKey}/{verb}',
    summary: 'Act as a recipient: verb is view, sign, approve or lock (in turn, in its role, once; 409 otherwise)',
    description:
      "Signing fills the recipient's special placeholders (date, name, email, signature). `signature` is a text signature or an image as a base64 data URI; without it a stub is used. See docs/lifecycle.md.",
    body: actBody(),
    example: { signature: 'Grace Hopper' },
    response: {
      status: 200,
      example: {
        recipient: {
          recipientKey: 'R1a2b3',
          id: 1,
          fullname: 'Grace Hopper',
          email: 'grace@example.com',
          action: 'sign',
          state: 'signed',
          notifiedAt: NOW,
          seenAt: NOW,
          actedAt: NOW,
          signature: 'Grace Hopper',
          link: 'http://127.0.0.1:4010/sharing/R1a2b3',
          createTime: NOW,
          changeTime: NOW,
        },
        contract: { contractKey: 'C1a2b3', status: 'Fully signed' },
      },
    },
  },
  {
    method: 'get',
    path: '/__sandbox/contracts/{contractKey}',
    summary: 'The whole contract: status, recipients with their state and times, placeholders with values, history',
    response: {
      status: 200,
      example: {
        contractKey: 'C1a2b3',
        clientKey: 'demoClient',
        name: 'Service agreement',
        status: 'Sent',
        recipients: [],
        placeholders: [],
        history: [],
      },
    },
  },
  {
    method: 'get',
    path: '/__sandbox/emails',
    summary: 'The outbox: emails the service would have sent (signing and approval requests, signed/approved notices)',
    query: z.object({
      to: z.string().optional(),
      contractKey: z.string().optional(),
      recipientKey: z.string().optional(),
      kind: z.string().optional(),
    }),
    response: {
      status: 200,
      example: {
        emails: [
          {
            id: 'email-1',
            kind: 'signing_request',
            to: 'grace@example.com',
            toName: 'Grace Hopper',
            subject: 'Please sign: Service agreement',
            text: '…',
            link: 'http://127.0.0.1:4010/sharing/R1a2b3',
            contractKey: 'C1a2b3',
            clientKey: 'demoClient',
            recipientKey: 'R1a2b3',
            sentAt: NOW,
            cause: 'api',
          },
        ],
      },
    },
  },
  {
    method: 'delete',
    path: '/__sandbox/emails',
    summary: 'Empty the outbox',
    response: { status: 200, example: { cleared: 3 } },
  },
  {
    method: 'get',
    path: '/__sandbox/sign/{recipientKey}',
    summary: 'Where request emails used to link: redirects (301) to the recipient page /sharing/{recipientKey}',
    html: true,
  },
  ...pageOperations,
  {
    method: 'get',
    path: '/__sandbox/scenarios',
    summary: 'The bundled scenarios and the active ones (docs/scenarios.md)',
    response: {
      status: 200,
      example: { bundled: [{ name: 'happy-path', description: 'Every recipient acts at once, in order' }], active: [] },
    },
  },
  {
    method: 'post',
    path: '/__sandbox/scenarios',
    summary:
      'Load a scenario: a bundled name, or YAML text (as JSON {"yaml"}, or the raw body with a YAML content type)',
    body: loadBody(),
    example: { name: 'happy-path' },
    response: { status: 201, example: { name: 'happy-path', source: 'bundled' } },
  },
  {
    method: 'delete',
    path: '/__sandbox/scenarios',
    summary: 'Unload every active scenario',
    response: { status: 200, example: { unloaded: [] } },
  },
  {
    method: 'get',
    path: '/__sandbox/scenarios/{name}',
    summary: 'One active scenario: its rules, pending steps, log and expectations (met, pending or failed)',
    response: {
      status: 200,
      example: {
        name: 'receiver-down-after-last-signature',
        source: 'bundled:receiver-down-after-last-signature',
        loadedAt: NOW,
        rules: 1,
        steps: 1,
        pendingTimers: 0,
        faults: [],
        receiverFaults: [],
        notes: [],
        log: [
          {
            at: NOW,
            cause: 'scenario:receiver-down-after-last-signature:receiver-down',
            what: 'webhookOutage: every webhook down (status 503) until 2026-03-01T15:00:00.000Z (reacting to contract.fully_signed of "Lease")',
            outcome: 'done',
          },
        ],
        expectations: [
          {
            id: 'fully-signed-delivered',
            status: 'met',
            evidence: 'delivery dlv_3 of contract.fully_signed to W1a2b3c answered 200 at 2026-03-01T15:00:05.000Z',
          },
        ],
      },
    },
  },
  {
    method: 'delete',
    path: '/__sandbox/scenarios/{name}',
    summary: 'Unload a scenario: pending steps, faults and outages end; past effects stay',
  },
  ...apiFaultOperations,
];
