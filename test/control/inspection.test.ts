import { describe, expect, it } from 'vitest';
import { createAndSend } from '../support/contract-walk.js';
import { DEMO, sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

describe('GET /__sandbox/contracts/{contractKey}', () => {
  it('answers 404 for an unknown contract', async () => {
    expect(await t.control('/contracts/nope')).toMatchObject({
      status: 404,
      body: { code: 404, message: 'Contract not found' },
    });
  });

  it('shows status, recipients with their state and times, placeholders and the history with sandbox times', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'approve', position: 2 },
    ]);
    await t.control('/clock/advance', { by: '5m' });
    await walk.act('Ann', 'view');
    await t.control('/clock/advance', { by: '5m' });
    await walk.act('Ann', 'sign', { signature: 'Ann' });
    const record = await walk.inspect();
    expect(record).toMatchObject({
      contractKey: walk.contractKey,
      clientKey: DEMO.clientKey,
      userKey: DEMO.userKey,
      name: 'Lease',
      // Ann is the only signer: her signature completes the contract; Bob's approval is still open.
      status: 'Fully signed',
      openPosition: 2,
      value: '<p>Terms</p>',
      createTime: '2026-03-01T09:00:00.000Z',
      changeTime: '2026-03-01T09:10:00.000Z',
    });
    expect(record.recipients).toEqual([
      {
        recipientKey: walk.keys.Ann,
        id: 1,
        fullname: 'Ann',
        email: 'ann@example.com',
        action: 'sign',
        position: 1,
        state: 'signed',
        notifiedAt: '2026-03-01T09:00:00.000Z',
        seenAt: '2026-03-01T09:05:00.000Z',
        actedAt: '2026-03-01T09:10:00.000Z',
        signature: 'Ann',
        link: `http://127.0.0.1:0/sharing/${walk.keys.Ann}`,
        createTime: '2026-03-01T09:00:00.000Z',
        // Each step of the recipient (notified, seen, signed) is a change of the recipient.
        changeTime: '2026-03-01T09:10:00.000Z',
      },
      expect.objectContaining({
        recipientKey: walk.keys.Bob,
        state: 'notified',
        notifiedAt: '2026-03-01T09:10:00.000Z',
      }),
    ]);
    expect(record.placeholders.map((p: any) => [p.placeholderKey, p.value])).toEqual([
      [`${walk.keys.Ann}_1`, '2026-03-01T09:10:00.000Z'],
      [`${walk.keys.Ann}_2`, 'Ann'],
      [`${walk.keys.Ann}_3`, 'ann@example.com'],
      [`${walk.keys.Ann}_4`, 'Ann'],
      [`${walk.keys.Bob}_1`, ''],
      [`${walk.keys.Bob}_2`, ''],
      [`${walk.keys.Bob}_3`, ''],
      [`${walk.keys.Bob}_4`, ''],
    ]);
    const history = record.history.map((h: any) => [
      h.at.slice(11, 16),
      h.event,
      walk.names[h.recipientKey] ?? '',
      h.status,
      h.cause,
    ]);
    expect(history).toEqual([
      ['09:00', 'created', '', 'Created', 'api'],
      ['09:00', 'sent', '', 'Sent', 'api'],
      ['09:00', 'notified', 'Ann', 'Sent', 'api'],
      ['09:05', 'seen', 'Ann', 'Seen', 'control'],
      ['09:10', 'signed', 'Ann', 'Signed', 'control'],
      ['09:10', 'fully_signed', '', 'Fully signed', 'control'],
      ['09:10', 'notified', 'Bob', 'Fully signed', 'control'],
    ]);
  });

  it('shows ordinary placeholders and the insertions placed on special ones', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const auth = await t.demoAuth();
    await t.post(
      '/api/placeholder',
      { data: { action: 'create', contractKey: walk.contractKey, placeholder: { name: 'price', value: '100 EUR' } } },
      auth,
    );
    await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'update',
          contractKey: walk.contractKey,
          placeholders: [
            {
              placeholderKey: `${walk.keys.Ann}_1`,
              isSpecial: true,
              specialType: 1,
              insertion: [{ pageId: 0, width: 100, height: 20 }],
            },
          ],
        },
      },
      auth,
    );
    const { placeholders } = await walk.inspect();
    expect(placeholders.find((p: any) => p.name === 'price')).toMatchObject({
      value: '100 EUR',
      isSpecial: false,
      type: '1',
    });
    expect(placeholders.find((p: any) => p.placeholderKey === `${walk.keys.Ann}_1`).insertion).toEqual([
      { id: '1', pageId: '0', width: '100', height: '20' },
    ]);
  });

  it('is tenant-agnostic: a contract of another platform is shown too', async () => {
    const platform = (await t.control('/platforms', {})).body;
    const token = await t.platformToken(platform);
    const client = await t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: 'Other Co', email: 'o@example.com' } } },
      { bearer: token },
    );
    const auth = { bearer: await t.clientToken(client.body.client.clientKey, token) };
    const walk = await createAndSend(t, [{ name: 'Ann' }], auth);
    expect((await walk.inspect()).clientKey).toBe(client.body.client.clientKey);
  });
});

describe('GET /__sandbox/sign/{recipientKey}', () => {
  it.each([
    ['a known recipient', true],
    ['an unknown key', false],
  ])('redirects %s to its recipient page under /sharing', async (_name, known) => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const key = known ? walk.keys.Ann! : 'nope';
    const res = await t.sandbox.app.request(`/__sandbox/sign/${key}`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`/sharing/${key}`);
    // Following the old link does not view: only the recipient page does, when opened.
    expect((await walk.inspect()).recipients[0].state).toBe('notified');
  });
});
