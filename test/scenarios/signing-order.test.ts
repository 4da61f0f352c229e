import { afterEach, describe, expect, it } from 'vitest';
import { type Play, contractEvents, play } from './play.js';
import { createContract } from '../support/contract-walk.js';

let p: Play;
afterEach(() => p?.close());

describe('bundled scenario: sequential-signing', () => {
  it('notifies and signs the three parties one at a time, fully signed after 3h30m', async () => {
    p = await play('sequential-signing');
    const name = 'Three-party agreement';
    const states = async () => (await p.contract(name)).recipients.map((r: any) => r.state);
    expect(await states()).toEqual(['notified', 'waiting', 'waiting']);
    await p.advance('59m');
    expect(await states()).toEqual(['notified', 'waiting', 'waiting']);
    await p.advance('1m');
    expect(await states()).toEqual(['signed', 'notified', 'waiting']);
    await p.advance('2h');
    expect(await states()).toEqual(['signed', 'signed', 'notified']);
    expect((await p.contract(name)).status).toBe('Signed');
    await p.advance('30m');
    const c = await p.contract(name);
    expect(c.status).toBe('Fully signed');
    expect(c.recipients.map((r: any) => r.actedAt)).toEqual([
      '2026-03-01T10:00:00.000Z',
      '2026-03-01T12:00:00.000Z',
      '2026-03-01T12:30:00.000Z',
    ]);
    const requests = (await p.emails(`?contractKey=${c.contractKey}`)).filter((e: any) => e.kind !== 'contract_signed');
    expect(requests.map((e: any) => [e.to, e.sentAt])).toEqual([
      ['first@example.com', '2026-03-01T09:00:00.000Z'],
      ['second@example.com', '2026-03-01T10:00:00.000Z'],
      ['third@example.com', '2026-03-01T12:00:00.000Z'],
    ]);
    expect(contractEvents(p, c.contractKey).filter((e) => e.startsWith('contract.signed'))).toEqual([
      'contract.signed first@example.com',
      'contract.signed second@example.com',
      'contract.signed third@example.com',
    ]);
  });
});

describe('bundled scenario: slow-signer', () => {
  it('leaves the contract waiting for days: seen after one, signed after three', async () => {
    p = await play('slow-signer');
    const name = 'Slow signer agreement';
    await p.advance('23h');
    expect((await p.contract(name)).status).toBe('Sent');
    await p.advance('1h');
    expect((await p.contract(name)).status).toBe('Seen');
    await p.advance('47h59m');
    expect((await p.contract(name)).status).toBe('Seen');
    await p.advance('1m');
    const c = await p.contract(name);
    expect(c.status).toBe('Fully signed');
    expect(c.recipients[0].actedAt).toBe('2026-03-04T09:00:00.000Z');
    expect(c.history.find((h: any) => h.event === 'signed').cause).toBe('scenario:slow-signer:slow');
  });

  it('lets recipients its slow rule does not match sign after 10 minutes', async () => {
    p = await play('slow-signer');
    const auth = await p.t.demoAuth();
    await createContract(p.t, auth, { name: 'Quick', value: '<p/>' }, [{ email: 'quick@example.com' }]);
    await p.advance('10m');
    const c = await p.contract('Quick');
    expect(c.status).toBe('Fully signed');
    expect(c.history.find((h: any) => h.event === 'signed').cause).toBe('scenario:slow-signer:others');
  });
});

describe('bundled scenario: never-signs', () => {
  it('never completes: the ghost is notified and does nothing, the co-signer signs', async () => {
    p = await play('never-signs');
    await p.advance('30d');
    const c = await p.contract('Unfinished agreement');
    expect(c.status).toBe('Signed');
    expect(c.recipients.map((r: any) => [r.email, r.state])).toEqual([
      ['casey@example.com', 'signed'],
      ['ghost@example.net', 'notified'],
    ]);
    expect(contractEvents(p, c.contractKey)).not.toContain('contract.fully_signed');
    const log = (await p.t.control('/scenarios/never-signs')).body.log;
    expect(log.map((l: any) => l.what)).toContain('ghost@example.net (sign) on "Unfinished agreement": never acts');
  });
});

describe('bundled scenario: approval-chain', () => {
  it('approves, then signs, then locks, each in turn', async () => {
    p = await play('approval-chain');
    const name = 'Purchase order with approval';
    const states = async () => (await p.contract(name)).recipients.map((r: any) => r.state);
    expect(await states()).toEqual(['notified', 'waiting', 'waiting']);
    await p.advance('1h');
    expect(await states()).toEqual(['approved', 'notified', 'waiting']);
    expect((await p.contract(name)).status).toBe('Approved');
    await p.advance('1d');
    expect(await states()).toEqual(['approved', 'signed', 'notified']);
    expect((await p.contract(name)).status).toBe('Fully signed');
    await p.advance('2h');
    const c = await p.contract(name);
    expect(c.recipients.map((r: any) => r.state)).toEqual(['approved', 'signed', 'locked']);
    expect(
      c.history
        .filter((h: any) => ['approved', 'signed', 'locked'].includes(h.event))
        .map((h: any) => [h.event, h.cause]),
    ).toEqual([
      ['approved', 'scenario:approval-chain:approver'],
      ['signed', 'scenario:approval-chain:signer'],
      ['locked', 'scenario:approval-chain:legal-lock'],
    ]);
    expect(contractEvents(p, c.contractKey)).toEqual([
      'contract.created',
      'contract.sent',
      'contract.seen manager@example.com',
      'contract.approved manager@example.com',
      'contract.seen customer@example.com',
      'contract.signed customer@example.com',
      'contract.fully_signed',
      'contract.seen legal@example.com',
    ]);
  });
});
