import { afterEach, describe, expect, it } from 'vitest';
import { type Play, contractEvents, play } from './play.js';
import { createContract } from '../support/contract-walk.js';

describe('bundled scenario: happy-path', () => {
  let p: Play;
  afterEach(() => p?.close());

  it('has both signers view after a minute and sign after five, fully signing the demo contract', async () => {
    p = await play('happy-path');
    let c = await p.contract('Happy path agreement');
    expect(c.status).toBe('Sent');
    expect(c.recipients.map((r: any) => r.state)).toEqual(['notified', 'notified']);

    await p.advance('1m');
    c = await p.contract('Happy path agreement');
    expect(c.status).toBe('Seen');
    expect(c.recipients.map((r: any) => r.state)).toEqual(['seen', 'seen']);

    await p.advance('4m');
    c = await p.contract('Happy path agreement');
    expect(c.status).toBe('Fully signed');
    expect(c.recipients.map((r: any) => r.actedAt)).toEqual(['2026-03-01T09:05:00.000Z', '2026-03-01T09:05:00.000Z']);
    expect(contractEvents(p, c.contractKey)).toEqual([
      'contract.created',
      'contract.sent',
      'contract.seen ada@example.com',
      'contract.seen alan@example.com',
      'contract.signed ada@example.com',
      'contract.signed alan@example.com',
      'contract.fully_signed',
    ]);
    // Reading the fully signed contract meets the scenario's expectation.
    const expectation = async () => (await p.t.control('/scenarios/happy-path')).body.expectations;
    expect(await expectation()).toMatchObject([{ id: 'read-when-fully-signed', status: 'pending' }]);
    const read = await p.t.post(
      '/api/contract',
      { data: { action: 'read', contract: { contractKey: c.contractKey } } },
      await p.t.demoAuth(),
    );
    expect(read.status).toBe(200);
    expect(await expectation()).toMatchObject([{ id: 'read-when-fully-signed', status: 'met' }]);
  });

  it('records which rule caused each action, in the history and the emails', async () => {
    p = await play('happy-path');
    await p.advance('5m');
    const c = await p.contract('Happy path agreement');
    const byEvent = Object.fromEntries(
      c.history.map((h: any) => [`${h.event}${h.recipientKey ? ` ${h.recipientKey}` : ''}`, h.cause]),
    );
    expect(c.history.find((h: any) => h.event === 'created').cause).toBe('scenario:happy-path:data');
    expect(c.recipients, 'the two signers of happy-path').toHaveLength(2);
    for (const r of c.recipients) {
      expect(byEvent[`seen ${r.recipientKey}`]).toBe('scenario:happy-path:prompt-recipient');
      expect(byEvent[`signed ${r.recipientKey}`]).toBe('scenario:happy-path:prompt-recipient');
    }
    const requests = await p.emails(`?contractKey=${c.contractKey}`);
    expect(requests.map((e: any) => [e.kind, e.to, e.cause])).toEqual([
      [expect.stringContaining('sign'), 'ada@example.com', 'scenario:happy-path:data'],
      [expect.stringContaining('sign'), 'alan@example.com', 'scenario:happy-path:data'],
      ['contract_signed', 'dana@example.com', 'scenario:happy-path:prompt-recipient'],
      ['contract_signed', 'dana@example.com', 'scenario:happy-path:prompt-recipient'],
    ]);
  });

  it('applies its rule to contracts the application sends while it is active', async () => {
    p = await play('happy-path');
    const auth = await p.t.demoAuth();
    const res = await createContract(p.t, auth, { name: 'Mine', value: '<p>x</p>' }, [
      { email: 'me@example.com', action: 'sign' },
    ]);
    expect(res.status).toBe(201);
    await p.advance('5m');
    expect((await p.contract('Mine')).status).toBe('Fully signed');
    const log = (await p.t.control('/scenarios/happy-path')).body.log;
    expect(log.map((l: any) => `${l.outcome} ${l.what}`)).toContain('done me@example.com: sign');
  });
});
