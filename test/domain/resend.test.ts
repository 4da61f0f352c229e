import { describe, expect, it } from 'vitest';
import { createAndSend } from '../support/contract-walk.js';
import { sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

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
