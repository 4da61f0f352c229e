import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/outbox/outbox.js';
import { createAndSend, email } from '../support/contract-walk.js';
import { DEMO, sandboxEachTest } from '../support/helpers.js';
import { createContract } from '../support/contract-walk.js';

const t = sandboxEachTest();

const emails = async (query = '') => (await t.control(`/emails${query}`)).body.emails as any[];

async function setNotifications(notification: { approved?: boolean; signed?: boolean }) {
  const res = await t.post(
    '/api/settings',
    { data: { type: 'email_notifications', notification } },
    await t.demoAuth(),
  );
  expect(res.status).toBe(201);
}

describe('request emails', () => {
  it.each([
    ['sign', 'signing_request', 'Please sign "Lease"', 'Dana Demo has sent you "Lease" to sign.'],
    ['approve', 'approval_request', 'Please approve "Lease"', 'Dana Demo has sent you "Lease" to approve.'],
    ['lock', 'lock_request', 'Please lock "Lease"', 'Dana Demo has sent you "Lease" to lock.'],
    ['view', 'view_request', '"Lease" has been shared with you', 'Dana Demo has sent you "Lease" to view.'],
  ] as const)(
    'go to a %s recipient when notified: %s, with the default message and a link',
    async (action, kind, subject, message) => {
      const walk = await createAndSend(t, [{ name: 'Ann', action }]);
      const key = walk.keys.Ann!;
      expect(await emails()).toEqual([
        {
          id: 'email-1',
          kind,
          to: email('Ann'),
          toName: 'Ann',
          subject,
          message,
          text: `Hello Ann,\n\n${message}\n\nOpen the contract: http://127.0.0.1:0/sharing/${key}\n`,
          link: `http://127.0.0.1:0/sharing/${key}`,
          contractKey: walk.contractKey,
          clientKey: DEMO.clientKey,
          recipientKey: key,
          sentAt: '2026-03-01T09:00:00.000Z',
          cause: 'api',
        },
      ]);
    },
  );

  it('carry the custom message when one was given', async () => {
    await createAndSend(t, [{ name: 'Ann', customMessage: 'Sign by Friday, please.' }]);
    const [mail] = await emails();
    expect(mail.message).toBe('Sign by Friday, please.');
    expect(mail.text).toContain('Sign by Friday, please.');
  });

  it('go out position by position, as recipients are notified', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'approve', position: 2 },
    ]);
    expect((await emails()).map((m) => m.to)).toEqual([email('Ann')]);
    await t.control('/clock/advance', { by: '10m' });
    await walk.act('Ann', 'sign');
    const bob = await emails(`?to=${email('Bob')}`);
    expect(bob).toHaveLength(1);
    expect(bob[0]).toMatchObject({ kind: 'approval_request', sentAt: '2026-03-01T09:10:00.000Z', cause: 'control' });
  });

  it('are sent again as reminders on a re-send, only to recipients who have not finished', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }]);
    await walk.act('Ann', 'sign');
    await t.post('/api/recipient', { data: { action: 'send', contractKey: walk.contractKey } }, await t.demoAuth());
    const requests = (await emails('?kind=signing_request')).map((m) => m.to);
    expect(requests).toEqual([email('Ann'), email('Bob'), email('Bob')]);
  });

  it('link to a recipient page on the sandbox that answers', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const [mail] = await emails();
    const page = await t.request(new URL(mail.link).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(new URL(mail.link).pathname).toBe(`/sharing/${walk.keys.Ann}`);
    expect(page.body).toMatch(/<button type="submit" name="verb" value="sign">Sign<\/button>/);
  });
});

describe('notices to the contract user', () => {
  it('say "signed" per signature and "approved" per approval, to the contract user', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cid', action: 'approve' }]);
    await walk.act('Ann', 'sign');
    await walk.act('Cid', 'approve');
    await walk.act('Bob', 'sign');
    const notices = await emails('?to=dana@example.com');
    expect(notices.map((m) => [m.kind, m.subject, walk.names[m.recipientKey]])).toEqual([
      ['contract_signed', '"Lease" was signed', 'Ann'],
      ['contract_approved', '"Lease" was approved', 'Cid'],
      ['contract_signed', '"Lease" is fully signed', 'Bob'],
    ]);
    expect(notices[2].text).toBe(
      `Bob <bob@example.com> signed "Lease" (${walk.contractKey}).\nEvery signer has now signed.\n`,
    );
    expect(notices.every((m) => m.link === undefined && m.message === undefined)).toBe(true);
  });

  it.each([
    [{ signed: false }, ['contract_approved']],
    [{ approved: false }, ['contract_signed']],
    [{ signed: false, approved: false }, []],
    [{ signed: true, approved: true }, ['contract_signed', 'contract_approved']],
  ])('follow the client email_notifications settings %j', async (settings, kinds) => {
    await setNotifications(settings);
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Cid', action: 'approve' }]);
    await walk.act('Ann', 'sign');
    await walk.act('Cid', 'approve');
    expect((await emails('?to=dana@example.com')).map((m) => m.kind)).toEqual(kinds);
    // Requests to recipients are not switched off by the settings.
    expect((await emails()).filter((m) => m.kind.endsWith('_request'))).toHaveLength(2);
  });

  it('go to the user named at create', async () => {
    const auth = await t.demoAuth();
    const res = await createContract(t, auth, { name: 'Other', value: '<p/>' }, [{ email: 'ann@example.com' }], {
      userKey: 'demoUser2',
    });
    const contractKey = res.body.contract.contractKey;
    const [r] = (await t.control(`/contracts/${contractKey}`)).body.recipients;
    await t.control(`/recipients/${r.recipientKey}/sign`, {});
    expect((await emails(`?contractKey=${contractKey}&kind=contract_signed`)).map((m) => m.to)).toEqual([
      'sam@example.com',
    ]);
    expect((await emails(`?contractKey=${contractKey}&kind=signing_request`))[0].message).toBe(
      'Sam Second has sent you "Other" to sign.',
    );
  });
});

describe('GET /__sandbox/emails', () => {
  it('filters by to (any case) and by contractKey', async () => {
    const one = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }]);
    const two = await createAndSend(t, [{ name: 'Ann' }]);
    expect(await emails()).toHaveLength(3);
    expect((await emails('?to=ANN@example.com')).map((m) => m.contractKey)).toEqual([one.contractKey, two.contractKey]);
    expect((await emails(`?contractKey=${one.contractKey}`)).map((m) => m.to)).toEqual([email('Ann'), email('Bob')]);
    expect(await emails(`?contractKey=${two.contractKey}&to=bob@example.com`)).toEqual([]);
    expect(await emails('?to=nobody@example.com')).toEqual([]);
  });

  it('never shows internal routing fields', async () => {
    await createAndSend(t, [{ name: 'Ann' }]);
    const [mail] = await emails();
    expect(mail).not.toHaveProperty('platformId');
  });

  it('is the same list the library sees on sandbox.outbox.list', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }]);
    expect(t.sandbox.control.outbox.list({ contractKey: walk.contractKey, to: email('Bob') })).toEqual(
      await emails(`?to=${email('Bob')}`),
    );
  });

  it('is emptied by DELETE and by a reset', async () => {
    await createAndSend(t, [{ name: 'Ann' }]);
    expect((await t.control('/emails', undefined, 'DELETE')).body).toEqual({ cleared: 1 });
    expect(await emails()).toEqual([]);
    await createAndSend(t, [{ name: 'Ann' }]);
    await t.control('/reset', {});
    expect(await emails()).toEqual([]);
  });

  it('captures nothing while fixtures are seeded', async () => {
    expect(await emails()).toEqual([]);
  });
});

describe('the outbox', () => {
  it('clears only one platform on a reset that names it', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const { platformId } = t.sandbox.services.store.contracts.get(walk.contractKey)!;
    t.sandbox.services.bus.emit({ type: 'sandbox.reset', platformId: 'another' });
    expect(t.sandbox.control.outbox.list()).toHaveLength(1);
    t.sandbox.services.bus.emit({ type: 'sandbox.reset', platformId });
    expect(t.sandbox.control.outbox.list()).toHaveLength(0);
  });

  it('keeps at most its cap, dropping the oldest', async () => {
    const outbox = new Outbox(t.sandbox.services, { baseUrl: () => 'http://sandbox.test', cap: 2 });
    await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cid' }]);
    expect(outbox.list().map((m) => [m.id, m.to])).toEqual([
      ['email-2', email('Bob')],
      ['email-3', email('Cid')],
    ]);
    expect(outbox.list()[0]!.link).toMatch(/^http:\/\/sandbox\.test\/sharing\//);
    outbox.dispose();
  });

  it('links to the address the sandbox listens on', async () => {
    const url = await t.sandbox.listen();
    await createAndSend(t, [{ name: 'Ann' }]);
    const [mail] = t.sandbox.control.outbox.list();
    expect(mail!.link!.startsWith(`${url}/sharing/`)).toBe(true);
    const page = await fetch(mail!.link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Ann');
  });
});
