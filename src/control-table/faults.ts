/**
 * Fault lists: /faults (API faults, the same format as a scenario's `faults:`, docs/scenarios.md) and
 * /webhook-faults (receiver faults, docs/webhooks.md). GET lists, POST adds one spec or several as
 * `{"faults": [...]}`, DELETE removes all or one. Scoped, a fault touches only the tenant's requests or deliveries.
 */
import { faultSpec } from '../api-faults/spec.js';
import type { FaultOperations } from '../control/faults.js';
import type { Control } from '../control/control.js';
import { receiverFaultSpec } from '../webhooks/receiver-fault-spec.js';
import { receiverFault } from './examples.js';
import { type ControlOp, type ControlTable, reshaped, wrappedIn } from './operation.js';

type FaultOps<Input, View> = {
  set: ControlOp<[Input | Input[]], string[]>;
  remove: ControlOp<[string], void>;
  clear: ControlOp<[], number>;
  list: ControlOp<[], View[]>;
};

function faultList<Input, View>(
  path: `/${string}`,
  noun: { one: string; many: string },
  tools: { [Op in keyof FaultOps<Input, View>]: string },
  of: (control: Control) => FaultOperations<View>,
  doc: { body: () => import('zod').ZodType; example?: unknown; view: unknown; summary: string },
): FaultOps<Input, View> {
  return {
    set: {
      route: `POST ${path}`,
      tool: tools.set,
      summary: doc.summary,
      body: doc.body,
      ...(doc.example !== undefined ? { example: doc.example } : {}),
      status: 201,
      answer: { ids: ['rf_1'], faults: [doc.view] },
      request: (spec) => ({ body: Array.isArray(spec) ? { faults: spec } : spec }),
      ...reshaped(
        (r, { control, tenant }) => {
          const faults = of(control);
          const ids = faults.add(r.body, 'control', undefined, tenant?.platformId);
          return { ids, faults: faults.list(undefined, tenant?.platformId) };
        },
        (answer) => answer.ids,
      ),
    },
    list: {
      route: `GET ${path}`,
      tool: tools.list,
      summary: `The ${noun.many} set now`,
      answer: { faults: [doc.view] },
      ...wrappedIn('faults', (_r, { control, tenant }) => of(control).list(undefined, tenant?.platformId)),
    },
    clear: {
      route: `DELETE ${path}`,
      tool: tools.clear,
      summary: `Remove every ${noun.one} (scoped: the tenant’s)`,
      answer: { removed: 1 },
      ...wrappedIn('removed', (_r, { control, tenant }) => of(control).clear(undefined, tenant?.platformId)),
    },
    remove: {
      route: `DELETE ${path}/{id}`,
      tool: tools.remove,
      summary: `Remove one ${noun.one}`,
      answer: { removed: 1 },
      request: (id) => ({ params: { id } }),
      ...reshaped(
        (r, { control, tenant }) => {
          of(control).remove(r.params.id!, tenant?.platformId);
          return { removed: 1 };
        },
        () => undefined,
      ),
    },
  };
}

const api = faultList(
  '/faults',
  { one: 'API fault', many: 'API faults' },
  { set: 'set_api_fault', list: 'list_api_faults', clear: 'clear_api_faults', remove: 'remove_api_fault' },
  (control) => control.faults,
  {
    body: faultSpec,
    view: {
      id: 'fault-1',
      source: 'control',
      match: { path: '/api/contract' },
      status: 503,
      seen: 0,
      hits: 0,
      exhausted: false,
    },
    summary:
      'Add an API fault (or several as {"faults": [...]}): errors, latency or dropped connections on matching /api requests',
  },
);

const receivers = faultList(
  '/webhook-faults',
  { one: 'receiver fault', many: 'receiver faults' },
  {
    set: 'set_receiver_fault',
    list: 'list_receiver_faults',
    clear: 'clear_receiver_faults',
    remove: 'remove_receiver_fault',
  },
  (control) => control.webhooks.faults,
  {
    body: receiverFaultSpec,
    example: { kind: 'duplicate', match: { event: 'contract.signed' }, times: 1 },
    view: receiverFault,
    summary:
      'Set a receiver fault (bad-signature, stale-timestamp, duplicate, out-of-order, slow), or several as {"faults": [...]}: deliveries spoilt on purpose to test your webhook handler',
  },
);

export const faultOps = {
  'faults.set': api.set,
  'faults.list': api.list,
  'faults.clear': api.clear,
  'faults.remove': api.remove,
  'webhooks.faults.set': receivers.set,
  'webhooks.faults.list': receivers.list,
  'webhooks.faults.clear': receivers.clear,
  'webhooks.faults.remove': receivers.remove,
} satisfies Partial<ControlTable>;
