import { describe, expect, it } from 'vitest';
import { systemContext } from '../../src/domain/context.js';
import { actAsRecipient } from '../../src/domain/lifecycle.js';
import { addRecipient } from '../../src/domain/recipients.js';
import { ApiError } from '../../src/core/errors.js';
import { createAndSend, email, isContractEvent } from '../support/contract-walk.js';
import { DEMO, sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

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
    // A real 1×1 PNG: images are decoded when given, a bare PNG signature is refused.
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
