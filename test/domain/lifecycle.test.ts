import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/domain/context.js';
import { RECIPIENT_RULES, advanceStatus } from '../../src/domain/lifecycle-rules.js';
import type { ContractStatus } from '../../src/core/vocabulary.js';
import { actAsRecipient } from '../../src/domain/lifecycle.js';
import { addRecipient } from '../../src/domain/recipients.js';
import { ApiError } from '../../src/core/errors.js';
import { createAndSend, email, isContractEvent } from '../support/contract-walk.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';

let t: TestSandbox;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
});
afterEach(() => t.close());

type Role = 'sign' | 'approve' | 'lock' | 'view';
type Expect =
  | 'seen'
  | 'signed'
  | 'approved'
  | 'locked'
  | 'viewed'
  | 'not-notified'
  | 'already-viewed'
  | 'already-acted'
  | 'wrong-role';

/**
 * The state table of docs/lifecycle.md, row by row: a recipient of this role, in this state, tries each verb.
 * A state name means the action succeeds and the recipient ends in that state; anything else is the 409 reason.
 */
const TABLE: [Role, string, Record<'view' | 'sign' | 'approve' | 'lock', Expect>][] = [
  ['sign', 'waiting', { view: 'not-notified', sign: 'not-notified', approve: 'wrong-role', lock: 'wrong-role' }],
  ['sign', 'notified', { view: 'seen', sign: 'signed', approve: 'wrong-role', lock: 'wrong-role' }],
  ['sign', 'seen', { view: 'already-viewed', sign: 'signed', approve: 'wrong-role', lock: 'wrong-role' }],
  ['sign', 'signed', { view: 'already-viewed', sign: 'already-acted', approve: 'wrong-role', lock: 'wrong-role' }],
  ['approve', 'waiting', { view: 'not-notified', sign: 'wrong-role', approve: 'not-notified', lock: 'wrong-role' }],
  ['approve', 'notified', { view: 'seen', sign: 'wrong-role', approve: 'approved', lock: 'wrong-role' }],
  ['approve', 'seen', { view: 'already-viewed', sign: 'wrong-role', approve: 'approved', lock: 'wrong-role' }],
  ['approve', 'approved', { view: 'already-viewed', sign: 'wrong-role', approve: 'already-acted', lock: 'wrong-role' }],
  ['lock', 'waiting', { view: 'not-notified', sign: 'wrong-role', approve: 'wrong-role', lock: 'not-notified' }],
  ['lock', 'notified', { view: 'seen', sign: 'wrong-role', approve: 'wrong-role', lock: 'locked' }],
  ['lock', 'seen', { view: 'already-viewed', sign: 'wrong-role', approve: 'wrong-role', lock: 'locked' }],
  ['lock', 'locked', { view: 'already-viewed', sign: 'wrong-role', approve: 'wrong-role', lock: 'already-acted' }],
  ['view', 'waiting', { view: 'not-notified', sign: 'wrong-role', approve: 'wrong-role', lock: 'wrong-role' }],
  ['view', 'notified', { view: 'viewed', sign: 'wrong-role', approve: 'wrong-role', lock: 'wrong-role' }],
  ['view', 'viewed', { view: 'already-acted', sign: 'wrong-role', approve: 'wrong-role', lock: 'wrong-role' }],
];

const CASES = TABLE.flatMap(([role, state, verbs]) =>
  Object.entries(verbs).map(([verb, expected]) => [role, state, verb, expected] as const),
);

const REASON: Record<string, (role: Role, verb: string, key: string) => string> = {
  // The target waits at position 2 behind a signer at position 1.
  'not-notified': (_role, verb) => `Recipient at position 2 cannot ${verb} before position 1 is done`,
  'already-viewed': (_role, _verb, key) =>
    `Recipient ${key} has already viewed the contract; each recipient views once`,
  'already-acted': (role, _verb, key) =>
    `Recipient ${key} has already ${{ sign: 'signed', approve: 'approved', lock: 'locked', view: 'viewed' }[role]} the contract`,
  'wrong-role': (role, verb, key) =>
    role === 'view'
      ? `Recipient ${key} has the role "view"; it can only view, not ${verb}`
      : `Recipient ${key} has the role "${role}"; it can ${role} or view, not ${verb}`,
};

/** Brings a recipient of `role` into `state` and returns the walk and its name. */
async function recipientIn(role: Role, state: string) {
  const target = { name: 'Target', action: role, position: 2 };
  const walk = await createAndSend(t, [{ name: 'First', action: 'sign', position: 1 }, target]);
  if (state === 'waiting') return walk;
  expect((await walk.act('First', 'sign')).status).toBe(200);
  if (state === 'seen') expect((await walk.act('Target', 'view')).status).toBe(200);
  if (['signed', 'approved', 'locked', 'viewed'].includes(state))
    expect((await walk.act('Target', role)).status).toBe(200);
  expect((await walk.states()).Target).toBe(state);
  return walk;
}

describe('the recipient state table', () => {
  it.each(CASES)('a recipient whose role is %s, %s, tries to %s: %s', async (role, state, verb, expected) => {
    const walk = await recipientIn(role, state);
    const res = await walk.act('Target', verb);
    if (expected in REASON) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 409, message: REASON[expected]!(role, verb, walk.keys.Target!) });
      expect((await walk.states()).Target).toBe(state);
    } else {
      expect(res.status).toBe(200);
      expect(res.body.recipient.state).toBe(expected);
      expect((await walk.states()).Target).toBe(expected);
    }
  });

  it('covers every state and every kind of verb in the code table', () => {
    expect(Object.keys(RECIPIENT_RULES).sort()).toEqual([
      'approved',
      'locked',
      'notified',
      'seen',
      'signed',
      'viewed',
      'waiting',
    ]);
    for (const row of Object.values(RECIPIENT_RULES)) expect(Object.keys(row).sort()).toEqual(['other', 'own', 'view']);
  });

  it.each([
    ['Created', 'Sent', 'Sent'],
    ['Sent', 'Seen', 'Seen'],
    ['Seen', 'Sent', 'Seen'],
    ['Signed', 'Seen', 'Signed'],
    ['Signed', 'Approved', 'Approved'],
    ['Approved', 'Signed', 'Signed'],
    ['Fully signed', 'Approved', 'Fully signed'],
    ['Fully signed', 'Sent', 'Fully signed'],
  ] as [ContractStatus, ContractStatus, ContractStatus][])(
    'status %s after a %s step is %s',
    (current, stepStatus, expected) => {
      expect(advanceStatus(current, stepStatus)).toBe(expected);
    },
  );
});

describe('a sequential contract (positions 1, 2, 3, mixed roles)', () => {
  it('notifies one position at a time and emits each event once, in order', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'approve', position: 2 },
      { name: 'Cid', action: 'sign', position: 2 },
      { name: 'Dee', action: 'lock', position: 3 },
      { name: 'Eve', action: 'view', position: 3 },
    ]);
    expect(walk.events()).toEqual(['contract.created Created', 'contract.sent Sent']);
    expect(walk.notified()).toEqual(['Ann']);
    expect(await walk.states()).toEqual({
      Ann: 'notified',
      Bob: 'waiting',
      Cid: 'waiting',
      Dee: 'waiting',
      Eve: 'waiting',
    });

    walk.clearEvents();
    expect((await walk.act('Ann', 'sign')).status).toBe(200);
    expect(walk.events()).toEqual(['contract.seen Seen Ann', 'contract.signed Signed Ann']);
    expect(walk.notified()).toEqual(['Bob', 'Cid']);

    walk.clearEvents();
    expect((await walk.act('Bob', 'approve')).status).toBe(200);
    expect(walk.events()).toEqual(['contract.seen Signed Bob', 'contract.approved Approved Bob']);
    expect(walk.notified()).toEqual([]);
    expect(await walk.status()).toBe('Approved');

    walk.clearEvents();
    expect((await walk.act('Cid', 'sign')).status).toBe(200);
    expect(walk.events()).toEqual([
      'contract.seen Approved Cid',
      'contract.signed Signed Cid',
      'contract.fully_signed Fully signed',
    ]);
    expect(walk.notified()).toEqual(['Dee', 'Eve']);

    walk.clearEvents();
    expect((await walk.act('Dee', 'lock')).status).toBe(200);
    expect((await walk.act('Eve', 'view')).status).toBe(200);
    expect(walk.events()).toEqual(['contract.seen Fully signed Dee', 'contract.seen Fully signed Eve']);
    expect(await walk.states()).toEqual({
      Ann: 'signed',
      Bob: 'approved',
      Cid: 'signed',
      Dee: 'locked',
      Eve: 'viewed',
    });
    expect(await walk.status()).toBe('Fully signed');
  });

  it('refuses a later position with a message naming the open one', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'sign', position: 2 },
      { name: 'Cid', action: 'sign', position: 3 },
    ]);
    expect((await walk.act('Cid', 'sign')).body.message).toBe(
      'Recipient at position 3 cannot sign before position 1 is done',
    );
    await walk.act('Ann', 'sign');
    expect((await walk.act('Cid', 'view')).body.message).toBe(
      'Recipient at position 3 cannot view before position 2 is done',
    );
  });

  it('holds a position open until every signer, approver and locker in it has acted', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'lock', position: 1 },
      { name: 'Cid', action: 'sign', position: 2 },
    ]);
    await walk.act('Ann', 'sign');
    expect((await walk.states()).Cid).toBe('waiting');
    await walk.act('Bob', 'lock');
    expect((await walk.states()).Cid).toBe('notified');
  });
});

describe('a parallel contract (no positions)', () => {
  it('notifies everyone at send and fires fully_signed once, after the last signer', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign' },
      { name: 'Bob', action: 'sign' },
      { name: 'Cid', action: 'approve' },
      { name: 'Dee', action: 'view' },
    ]);
    expect(walk.notified()).toEqual(['Ann', 'Bob', 'Cid', 'Dee']);
    walk.clearEvents();
    await walk.act('Bob', 'view');
    await walk.act('Cid', 'approve');
    await walk.act('Bob', 'sign');
    expect(await walk.status()).toBe('Signed');
    await walk.act('Ann', 'sign');
    await walk.act('Dee', 'view');
    expect(walk.events()).toEqual([
      'contract.seen Seen Bob',
      'contract.seen Seen Cid',
      'contract.approved Approved Cid',
      'contract.signed Signed Bob',
      'contract.seen Signed Ann',
      'contract.signed Signed Ann',
      'contract.fully_signed Fully signed',
      'contract.seen Fully signed Dee',
    ]);
    expect(walk.notified()).toEqual([]);
  });

  it('defaults a recipient without an action to sign', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    expect((await walk.inspect()).recipients[0].action).toBe('sign');
    await walk.act('Ann', 'sign');
    expect(await walk.status()).toBe('Fully signed');
  });

  it('never becomes Fully signed without a sign recipient', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'approve' },
      { name: 'Bob', action: 'lock' },
    ]);
    await walk.act('Ann', 'approve');
    await walk.act('Bob', 'lock');
    expect(await walk.status()).toBe('Approved');
    expect(walk.events().filter((e) => e.includes('fully_signed'))).toEqual([]);
  });
});

describe('a mixed contract (some positioned, some not)', () => {
  it('notifies unpositioned recipients at send, and view recipients never hold up the order', async () => {
    const walk = await createAndSend(t, [
      { name: 'Viv', action: 'view', position: 1 },
      { name: 'Ann', action: 'sign', position: 2 },
      { name: 'Una', action: 'approve' },
      { name: 'Wes', action: 'view', position: 3 },
      { name: 'Bob', action: 'sign', position: 3 },
    ]);
    // Position 1 holds only a viewer, so position 2 is the lowest open one: both are notified together.
    expect(walk.notified()).toEqual(['Viv', 'Ann', 'Una']);
    walk.clearEvents();
    await walk.act('Ann', 'sign');
    expect(walk.notified()).toEqual(['Wes', 'Bob']);
    await walk.act('Bob', 'sign');
    expect(await walk.status()).toBe('Fully signed');
    expect(walk.events()).toEqual([
      'contract.seen Seen Ann',
      'contract.signed Signed Ann',
      'contract.seen Signed Bob',
      'contract.signed Signed Bob',
      'contract.fully_signed Fully signed',
    ]);
    // Viv never viewed and Una never approved: neither blocked anything, and both may still act.
    expect((await walk.act('Una', 'approve')).status).toBe(200);
    expect((await walk.act('Viv', 'view')).status).toBe(200);
    expect(await walk.states()).toEqual({
      Viv: 'viewed',
      Ann: 'signed',
      Una: 'approved',
      Wes: 'notified',
      Bob: 'signed',
    });
  });
});

describe('refusals', () => {
  it('answers 404 for an unknown recipient and 400 for an unknown verb', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    expect(await t.control('/recipients/nope/sign', {})).toMatchObject({
      status: 404,
      body: { code: 404, message: 'Recipient not found' },
    });
    const res = await walk.act('Ann', 'dance');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Unknown verb "dance"; a recipient can view, sign, approve, lock');
  });

  it('refuses a recipient of a contract that was never sent', async () => {
    const res = await t.post(
      '/api/contract',
      { data: { action: 'create', contract: { name: 'Draft', value: '<p/>' } } },
      await t.demoAuth(),
    );
    const contract = t.sandbox.services.store.contracts.get(res.body.contract.contractKey)!;
    const client = t.sandbox.services.store.clients.get(DEMO.clientKey)!;
    const r = addRecipient(systemContext(t.sandbox.services, 'test'), contract, client, {
      email: 'ann@example.com',
      action: 'sign',
    });
    const act = await t.control(`/recipients/${r.recipientKey}/sign`, {});
    expect(act.status).toBe(409);
    expect(act.body.message).toBe(`Recipient ${r.recipientKey} cannot sign yet: the contract has not been sent`);
  });

  it.each([
    ['a signature with another verb', 'view', { signature: 'Ann' }, 'A signature only goes with sign, not view'],
    [
      'an image signature that is not base64 image data',
      'sign',
      { signature: 'data:text/html,<b>x</b>' },
      'signature: an image signature must be a base64 data URI of a png, jpeg, gif, webp or svg image',
    ],
    [
      'an empty text signature',
      'sign',
      { signature: '  ' },
      'signature: a text signature is one line of 1 to 200 characters',
    ],
    ['a signature that is not a string', 'sign', { signature: 42 }, 'Request body is invalid'],
  ])('answers 400 for %s', async (_name, verb, body, message) => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const res = await walk.act('Ann', verb, body);
    expect(res.status).toBe(400);
    if (message !== 'Request body is invalid') expect(res.body.message).toBe(message);
    expect((await walk.states()).Ann).toBe('notified');
  });

  it('keeps the domain function usable without a client and answers 404 for another client', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const ctx = systemContext(t.sandbox.services, 'scenario:test:1');
    expect(actAsRecipient(ctx, walk.keys.Ann!, 'view').state).toBe('seen');
    const other = { ...t.sandbox.services.store.clients.get(DEMO.clientKey)!, clientKey: 'someoneElse' };
    expect(() => actAsRecipient({ ...ctx, client: other }, walk.keys.Ann!, 'sign')).toThrow(ApiError);
    expect(
      walk.raw
        .filter(isContractEvent)
        .filter((e) => e.type === 'contract.seen')
        .map((e) => e.cause),
    ).toEqual(['scenario:test:1']);
  });
});

describe('archive', () => {
  const reach: Record<string, (walk: Awaited<ReturnType<typeof createAndSend>>) => Promise<unknown>> = {
    Sent: async () => undefined,
    Seen: (w) => w.act('Ann', 'view'),
    Signed: (w) => w.act('Ann', 'sign'),
    Approved: (w) => w.act('Apu', 'approve'),
    'Fully signed': async (w) => {
      await w.act('Ann', 'sign');
      await w.act('Bob', 'sign');
    },
  };

  it.each(Object.keys(reach))(
    'closes a %s contract: no action, send or recipient change afterwards',
    async (status) => {
      const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Apu', action: 'approve' }]);
      await reach[status]!(walk);
      expect(await walk.status()).toBe(status);
      const auth = await t.demoAuth();
      const archived = await t.post(
        '/api/contract',
        { data: { action: 'archive', contract: { contractKey: walk.contractKey } } },
        auth,
      );
      expect(archived.status).toBe(200);
      expect(await walk.status()).toBe('Archived');
      expect((await walk.inspect()).history.at(-1)).toMatchObject({
        event: 'archived',
        status: 'Archived',
        detail: { previousStatus: status },
      });

      const act = await walk.act('Apu', 'view');
      expect(act.status).toBe(409);
      expect(act.body.message).toBe(`Contract ${walk.contractKey} is archived; its recipients cannot view`);
      const again = await t.post(
        '/api/contract',
        { data: { action: 'archive', contract: { contractKey: walk.contractKey } } },
        auth,
      );
      expect(again.status).toBe(409);
      const send = await t.post('/api/recipient', { data: { action: 'send', contractKey: walk.contractKey } }, auth);
      expect(send.status).toBe(409);
      const update = await t.post(
        '/api/recipient',
        {
          data: {
            action: 'update',
            contractKey: walk.contractKey,
            recipient: { recipientKey: walk.keys.Apu, fullname: 'X' },
          },
        },
        auth,
      );
      expect(update.status).toBe(409);
      const del = await t.post(
        '/api/recipient',
        { data: { action: 'delete', contractKey: walk.contractKey, recipient: { recipientKey: walk.keys.Apu } } },
        auth,
      );
      expect(del.status).toBe(409);
    },
  );

  it('closes a Created contract', async () => {
    const auth = await t.demoAuth();
    const res = await t.post(
      '/api/contract',
      { data: { action: 'create', contract: { name: 'Draft', value: '<p/>' } } },
      auth,
    );
    const contractKey = res.body.contract.contractKey;
    expect(
      (await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey } } }, auth)).status,
    ).toBe(200);
    const send = await t.post(
      '/api/recipient',
      { data: { action: 'send', contractKey, recipients: [{ email: 'a@example.com' }] } },
      auth,
    );
    expect(send).toMatchObject({ status: 409, body: { message: 'Contract is archived; it cannot be sent' } });
    expect((await t.control(`/contracts/${contractKey}`)).body.recipients).toEqual([]);
  });
});

describe('re-sending', () => {
  it('reminds recipients whose turn it is, leaves finished ones alone and never moves the status back', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'sign', position: 2 },
      { name: 'Cid', action: 'sign', position: 2 },
      { name: 'Dee', action: 'sign', position: 3 },
    ]);
    await walk.act('Ann', 'sign');
    await walk.act('Bob', 'view');
    walk.clearEvents();
    const auth = await t.demoAuth();
    const res = await t.post('/api/recipient', { data: { action: 'send', contractKey: walk.contractKey } }, auth);
    expect(res.body).toEqual({ result: true, code: '200', message: 'Contract sent' });
    expect(walk.events()).toEqual(['contract.sent Signed']);
    expect(walk.notified()).toEqual(['Bob', 'Cid']);
    expect(await walk.states()).toEqual({ Ann: 'signed', Bob: 'seen', Cid: 'notified', Dee: 'waiting' });
    const reminders = (await walk.inspect()).history.filter((h: any) => h.event === 'notified' && h.detail?.reminder);
    expect(reminders.map((h: any) => walk.names[h.recipientKey])).toEqual(['Bob', 'Cid']);
  });

  it('updates named recipients, adds new ones, and notifies them when it is their turn', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann', action: 'sign', position: 1 }]);
    const auth = await t.demoAuth();
    walk.clearEvents();
    const res = await t.post(
      '/api/recipient',
      {
        data: {
          action: 'send',
          contractKey: walk.contractKey,
          recipients: [
            { recipientKey: walk.keys.Ann, fullname: 'Ann Again', customMessage: 'Please hurry' },
            { fullname: 'Bob', email: 'bob@example.com', position: 2 },
          ],
        },
      },
      auth,
    );
    expect(res.status).toBe(200);
    const record = await walk.inspect();
    expect(record.recipients.map((r: any) => [r.fullname, r.state, r.customMessage])).toEqual([
      ['Ann Again', 'notified', 'Please hurry'],
      ['Bob', 'waiting', undefined],
    ]);
    // A re-send reminds Ann (named by her original name in this walk); Bob waits for position 1.
    expect(walk.notified()).toEqual(['Ann']);
  });

  it('accepts a recipient that has acted named exactly as it is, and refuses to change it without changing anything', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }]);
    await walk.act('Ann', 'sign');
    const auth = await t.demoAuth();
    const send = (recipients: unknown[]) =>
      t.post('/api/recipient', { data: { action: 'send', contractKey: walk.contractKey, recipients } }, auth);
    const same = await send([
      { recipientKey: walk.keys.Ann, fullname: 'Ann', email: 'ann@example.com', action: 'sign' },
    ]);
    expect(same.status).toBe(200);
    const changed = await send([
      { fullname: 'Cid', email: 'cid@example.com' },
      { recipientKey: walk.keys.Ann, fullname: 'Ann B.' },
    ]);
    expect(changed).toMatchObject({
      status: 409,
      body: { message: `Recipient ${walk.keys.Ann} has already signed; it cannot be changed` },
    });
    expect((await walk.inspect()).recipients.map((r: any) => r.fullname)).toEqual(['Ann', 'Bob']);
  });

  it('refuses when every recipient has already acted', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    await walk.act('Ann', 'sign');
    const res = await t.post(
      '/api/recipient',
      { data: { action: 'send', contractKey: walk.contractKey } },
      await t.demoAuth(),
    );
    expect(res).toMatchObject({
      status: 409,
      body: { message: 'Every recipient of this contract has already acted; there is nobody left to send it to' },
    });
  });

  it('keeps a fully signed contract fully signed: no new signer, but viewers may be added', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    await walk.act('Ann', 'sign');
    const auth = await t.demoAuth();
    const send = (recipients: unknown[]) =>
      t.post('/api/recipient', { data: { action: 'send', contractKey: walk.contractKey, recipients } }, auth);
    const signer = await send([{ email: 'new@example.com' }]);
    expect(signer).toMatchObject({
      status: 409,
      body: {
        message:
          'Contract is fully signed; it takes no new sign recipient (add view, approve or lock recipients instead)',
      },
    });
    const viewer = await send([{ email: 'cc@example.com', fullname: 'Cc', action: 'view' }]);
    expect(viewer.status).toBe(200);
    const record = await walk.inspect();
    expect(record.status).toBe('Fully signed');
    expect(record.recipients.map((r: any) => r.state)).toEqual(['signed', 'notified']);
    const toSigner = await t.post(
      '/api/recipient',
      {
        data: {
          action: 'update',
          contractKey: walk.contractKey,
          recipient: { recipientKey: record.recipients[1].recipientKey, action: 'sign' },
        },
      },
      auth,
    );
    expect(toSigner.status).toBe(409);
  });
});

describe('recipient changes after some have acted', () => {
  it('refuses to change or delete a recipient that has acted', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }]);
    await walk.act('Ann', 'sign');
    const auth = await t.demoAuth();
    const update = await t.post(
      '/api/recipient',
      {
        data: {
          action: 'update',
          contractKey: walk.contractKey,
          recipient: { recipientKey: walk.keys.Ann, fullname: 'X' },
        },
      },
      auth,
    );
    expect(update).toMatchObject({
      status: 409,
      body: { message: `Recipient ${walk.keys.Ann} has already signed; it cannot be changed` },
    });
    const del = await t.post(
      '/api/recipient',
      { data: { action: 'delete', contractKey: walk.contractKey, recipient: { recipientKey: walk.keys.Ann } } },
      auth,
    );
    expect(del.status).toBe(409);
  });

  it('moves the turn on when a blocking recipient is deleted, and completes the contract when the last unsigned signer goes', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'sign', position: 1 },
      { name: 'Cid', action: 'view', position: 2 },
    ]);
    await walk.act('Ann', 'sign');
    walk.clearEvents();
    const auth = await t.demoAuth();
    const del = await t.post(
      '/api/recipient',
      { data: { action: 'delete', contractKey: walk.contractKey, recipient: { recipientKey: walk.keys.Bob } } },
      auth,
    );
    expect(del.status).toBe(200);
    expect(walk.events()).toEqual(['contract.fully_signed Fully signed']);
    expect(walk.notified()).toEqual(['Cid']);
    expect((await walk.inspect()).history.map((h: any) => h.event).slice(-3)).toEqual([
      'recipient_deleted',
      'fully_signed',
      'notified',
    ]);
  });

  it('notifies a waiting recipient moved into the open position', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'sign', position: 2 },
    ]);
    walk.clearEvents();
    const auth = await t.demoAuth();
    const res = await t.post(
      '/api/recipient',
      {
        data: {
          action: 'update',
          contractKey: walk.contractKey,
          recipient: { recipientKey: walk.keys.Bob, position: 1 },
        },
      },
      auth,
    );
    expect(res.status).toBe(201);
    expect(walk.notified()).toEqual(['Bob']);
  });

  it('marks a recipient that had seen the contract as viewed when its role becomes view', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }]);
    await walk.act('Bob', 'view');
    const auth = await t.demoAuth();
    await t.post(
      '/api/recipient',
      {
        data: {
          action: 'update',
          contractKey: walk.contractKey,
          recipient: { recipientKey: walk.keys.Bob, action: 'view' },
        },
      },
      auth,
    );
    expect((await walk.states()).Bob).toBe('viewed');
  });
});

describe('events', () => {
  it('carry the contract key, client key, recipient key, new status, sandbox time and cause', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    await t.control('/clock/advance', { by: '1h' });
    await walk.act('Ann', 'sign');
    const signed = walk.raw.find((e) => e.type === 'contract.signed')!;
    expect(signed).toMatchObject({
      type: 'contract.signed',
      timestamp: '2026-03-01T10:00:00.000Z',
      data: {
        contractKey: walk.contractKey,
        clientKey: DEMO.clientKey,
        name: expect.any(String),
        createTime: '2026-03-01T09:00:00.000Z',
        recipientKey: walk.keys.Ann,
        email: expect.stringContaining('@'),
        fullname: 'Ann',
        status: 'Signed',
      },
      cause: 'control',
    });
    const notified = walk.raw.find((e) => e.type === 'recipient.notified')!;
    expect(notified).toEqual({
      type: 'recipient.notified',
      platformId: t.sandbox.services.store.clients.get(DEMO.clientKey)!.platformId,
      contractKey: walk.contractKey,
      clientKey: DEMO.clientKey,
      recipientKey: walk.keys.Ann,
      cause: 'api',
    });
    const fully = walk.raw.filter(isContractEvent).find((e) => e.type === 'contract.fully_signed')!;
    // No recipient acted on its own in the completion step: the payload names none.
    expect(Object.keys(fully.data).sort()).toEqual(['clientKey', 'contractKey', 'createTime', 'name', 'status']);
  });
});

describe('special placeholders', () => {
  it('get date, name, email and a generated signature on signing, and keep their insertions', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob', action: 'approve' }]);
    const auth = await t.demoAuth();
    const placed = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'update',
          contractKey: walk.contractKey,
          placeholders: [
            {
              placeholderKey: `${walk.keys.Ann}_4`,
              isSpecial: true,
              specialType: 4,
              insertion: [{ id: '1', pageId: '0', positionX: '10', positionY: '20' }],
            },
          ],
        },
      },
      auth,
    );
    expect(placed.status).toBe(201);
    await t.control('/clock/advance', { by: '90s' });
    await walk.act('Ann', 'sign');
    await walk.act('Bob', 'approve');
    const placeholders = (await walk.inspect()).placeholders;
    const of = (name: string) =>
      Object.fromEntries(
        placeholders.filter((p: any) => p.recipientKey === walk.keys[name]).map((p: any) => [p.specialType, p]),
      );
    const ann = of('Ann');
    expect(ann[1].value).toBe('2026-03-01T09:01:30.000Z');
    expect(ann[2].value).toBe('Ann');
    expect(ann[3].value).toBe(email('Ann'));
    expect(ann[4].value).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(ann[4].value.split(',')[1], 'base64').toString()).toContain('>Ann</text>');
    expect(ann[4].insertion).toEqual([{ id: '1', pageId: '0', positionX: '10', positionY: '20' }]);
    // Approving fills nothing: the special placeholders are about signing.
    expect(Object.values(of('Bob')).map((p: any) => p.value)).toEqual(['', '', '', '']);
  });

  it.each([
    ['a text signature', 'Ann A. Signer'],
    // A real 1×1 PNG: images are decoded when given, a bare PNG signature is refused (issue 24 §4).
    [
      'an image data URI',
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
    ],
  ])('take %s given with sign', async (_name, signature) => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const res = await walk.act('Ann', 'sign', { signature });
    expect(res.body.recipient.signature).toBe(signature);
    const p = (await walk.inspect()).placeholders.find((x: any) => x.placeholderKey === `${walk.keys.Ann}_4`);
    expect(p.value).toBe(signature);
  });
});
