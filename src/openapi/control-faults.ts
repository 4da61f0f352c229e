/** The fault lists of the control API as the OpenAPI document shows them: receiver faults and API faults. */
import { faultSpec } from '../api-faults/spec.js';
import { receiverFaultSpec } from '../webhooks/receiver-fault-spec.js';
import type { ControlOperation } from './control-operation.js';

export const receiverFaultOperations: ControlOperation[] = [
  {
    method: 'get',
    path: '/__sandbox/webhook-faults',
    summary: 'Receiver faults set now: deliveries spoilt on purpose to test your webhook handler (docs/webhooks.md)',
    response: {
      status: 200,
      example: {
        faults: [
          {
            id: 'rf_1',
            source: 'control',
            kind: 'bad-signature',
            signature: 'wrong-secret',
            match: {},
            seen: 0,
            hits: 0,
            exhausted: false,
          },
        ],
      },
    },
  },
  {
    method: 'post',
    path: '/__sandbox/webhook-faults',
    summary:
      'Set a receiver fault (bad-signature, stale-timestamp, duplicate, out-of-order, slow), or several as {"faults": [...]}',
    body: receiverFaultSpec(),
    example: { kind: 'duplicate', match: { event: 'contract.signed' }, times: 1 },
    response: {
      status: 201,
      example: {
        ids: ['rf_1'],
        faults: [
          {
            id: 'rf_1',
            source: 'control',
            kind: 'duplicate',
            match: { event: 'contract.signed' },
            times: 1,
            seen: 0,
            hits: 0,
            exhausted: false,
          },
        ],
      },
    },
  },
  {
    method: 'delete',
    path: '/__sandbox/webhook-faults',
    summary: 'Remove every receiver fault',
    response: { status: 200, example: { removed: 1 } },
  },
  {
    method: 'delete',
    path: '/__sandbox/webhook-faults/{id}',
    summary: 'Remove one receiver fault',
    response: { status: 200, example: { removed: 1 } },
  },
];

export const apiFaultOperations: ControlOperation[] = [
  {
    method: 'get',
    path: '/__sandbox/faults',
    summary: 'The API faults in force',
    response: { status: 200, example: { faults: [] } },
  },
  {
    method: 'post',
    path: '/__sandbox/faults',
    summary:
      'Add an API fault (or several as {"faults": [...]}): errors, latency or dropped connections on matching /api requests',
    body: faultSpec(),
    response: { status: 201, example: { ids: ['fault-1'], faults: [] } },
  },
  {
    method: 'delete',
    path: '/__sandbox/faults',
    summary: 'Remove every API fault',
    response: { status: 200, example: { removed: 1 } },
  },
  {
    method: 'delete',
    path: '/__sandbox/faults/{id}',
    summary: 'Remove one API fault',
    response: { status: 200, example: { removed: 1 } },
  },
];
