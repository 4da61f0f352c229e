import { describe, expect, it } from 'vitest';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { createContract } from '../support/contract-walk.js';
import { closeAfterEach, sandboxEachTest } from '../support/helpers.js';
import { scenarioSteps } from '../support/scenario-kit.js';
import { subscribe } from '../support/webhook-support.js';

const t = sandboxEachTest();
const opened = closeAfterEach();
const { load, advance, contractNamed: contract, recipient } = scenarioSteps(() => t);
const log = async (name: string) =>
  (await t.control(`/scenarios/${name}`)).body.log.map(
    (l: any) => `${l.at} ${l.cause} ${l.outcome}: ${l.what}${l.detail ? ` (${l.detail})` : ''}`,
  );

describe('timeline steps', () => {
  it('creates and sends contracts, then acts as a recipient, at their times', async () => {
    await load(`
name: prepared
timeline:
  - id: draft
    at: 1h
    createContract:
      contractKey: preparedContract
      name: Prepared
      value: <p>x</p>
      recipients: [{ email: pat@example.com, action: sign }]
  - id: send-it
    at: 2h
    sendContract: { contract: Prepared }
  - id: pat-signs
    at: "2026-03-01T12:00:00Z"
    act: { match: { email: pat@example.com }, verb: act }
`);
    expect(contract('Prepared')).toBeUndefined();
    await advance('1h');
    expect(contract('Prepared')).toMatchObject({ contractKey: 'preparedContract', status: 'Created' });
    await advance('1h');
    expect(contract('Prepared')!.status).toBe('Sent');
    await advance('1h');
    const c = contract('Prepared')!;
    expect(c.status).toBe('Fully signed');
    expect(c.history.map((h) => [h.event, h.cause])).toEqual([
      ['created', 'scenario:prepared:draft'],
      ['sent', 'scenario:prepared:send-it'],
      ['notified', 'scenario:prepared:send-it'],
      ['seen', 'scenario:prepared:pat-signs'],
      ['signed', 'scenario:prepared:pat-signs'],
      ['fully_signed', 'scenario:prepared:pat-signs'],
    ]);
    expect(await log('prepared')).toEqual([
      '2026-03-01T10:00:00.000Z scenario:prepared:draft done: createContract: contract "Prepared" preparedContract created',
      '2026-03-01T11:00:00.000Z scenario:prepared:send-it done: sendContract: contract preparedContract sent',
      '2026-03-01T12:00:00.000Z scenario:prepared:pat-signs done: act: pat@example.com sign',
    ]);
  });

  it('changes email settings: no "contract signed" email after the step', async () => {
    await load(`
name: quiet
recipients:
  - sign: 2h
timeline:
  - at: 1h
    settings: { notification: { signed: false } }
data:
  clients:
    - clientKey: demoClient
      contracts:
        - { name: Quiet, value: <p/>, send: true, recipients: [{ email: q@example.com }] }
`);
    await advance('3h');
    expect(contract('Quiet')!.status).toBe('Fully signed');
    expect(t.sandbox.services.store.clients.get('demoClient')!.notification).toEqual({ approved: true, signed: false });
    const emails = (await t.control('/emails')).body.emails;
    expect(emails.map((e: any) => e.kind)).not.toContain('contract_signed');
  });

  it('adds and clears faults at their times', async () => {
    await load(`
name: bad-hour
timeline:
  - at: 1h
    addFaults: [{ id: down, status: 503 }]
  - at: 2h
    clearFaults: true
`);
    const list = () =>
      t.post('/api/contract', { data: { action: 'list', clientKey: 'demoClient' } }, { apiKey: 'sandboxApiKey' });
    expect((await list()).status).toBe(200);
    await advance('1h');
    const down = await list();
    expect(down.status).toBe(503);
    expect(down.headers.get('x-sandbox-fault')).toBe('bad-hour:down');
    await advance('1h');
    expect((await list()).status).toBe(200);
  });

  it('refuses webhook connections during an outage until endWebhookOutage, recording the step as the cause', async () => {
    const receiver = opened(await createWebhookReceiver());
    const auth = await t.demoAuth();
    await subscribe(t, receiver, auth);
    await load(`
name: refused
timeline:
  - id: unplugged
    at: 0s
    webhookOutage: { id: cable, refuse: true }
  - id: plugged-in
    at: 1m
    endWebhookOutage: cable
`);
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'R', value: '<p/>' } } }, auth);
    // Deliveries leave after the request's instant (docs/scenarios.md, "Order"): wait for them.
    await t.sandbox.services.clocks.sandbox.work.settled();
    const [d] = (await t.control('/webhook-deliveries')).body.deliveries;
    expect(d.attempts[0]).toMatchObject({ cause: 'scenario:refused:unplugged' });
    expect(d.attempts[0].error).toMatch(/refused/i);
    await advance('6m');
    expect((await t.control('/webhook-deliveries')).body.deliveries[0].status).toBe('delivered');
    expect(receiver.accepted()).toHaveLength(1);
  });

  it('logs a step that cannot run as failed and carries on with the next', async () => {
    await load(`
name: oops
timeline:
  - at: 1m
    sendContract: { contract: Nowhere }
  - at: 2m
    expireTokens: platform
`);
    await advance('2m');
    expect(await log('oops')).toEqual([
      '2026-03-01T09:01:00.000Z scenario:oops:step-1 failed: sendContract (no contract with key or name "Nowhere")',
      '2026-03-01T09:02:00.000Z scenario:oops:step-2 done: expireTokens: 0 token(s) expired',
    ]);
  });

  it('lets the first matching rule of the first loaded scenario decide, and skips verbs that do not fit the role', async () => {
    await load(`
name: first
recipients:
  - id: signers-only
    sign: 1h
`);
    await load(`
name: second
recipients:
  - id: everyone
    act: 2h
`);
    const auth = await t.demoAuth();
    await createContract(t, auth, 'Mixed', [
      { email: 's@example.com', action: 'sign' },
      { email: 'a@example.com', action: 'approve' },
    ]);
    await advance('2h');
    const c = contract('Mixed')!;
    expect(
      c.history
        .filter((h) => h.event === 'signed' || h.event === 'approved')
        .map((h) => [h.event, h.cause, new Date(h.at).toISOString()]),
    ).toEqual([
      ['signed', 'scenario:first:signers-only', '2026-03-01T10:00:00.000Z'],
      ['approved', 'scenario:second:everyone', '2026-03-01T11:00:00.000Z'],
    ]);
  });

  it('records an action a rule can no longer take as skipped, with the reason', async () => {
    await load('name: late\nrecipients:\n  - sign: 1h\n');
    const auth = await t.demoAuth();
    await createContract(t, auth, 'Beaten', [{ email: 'b@example.com' }]);
    expect((await t.control(`/recipients/${recipient('b@example.com').recipientKey}/sign`, {})).status).toBe(200);
    await advance('1h');
    const entries = await log('late');
    expect(entries.at(-1)).toMatch(
      /^2026-03-01T10:00:00.000Z scenario:late:rule-1 skipped: b@example.com: sign \(.+\)$/,
    );
  });
});

describe('scenario data', () => {
  it('creates a client with users, a template, a webhook and a contract from the template, sent as by the API', async () => {
    // The secret is issued when the scenario creates the webhook, after the receiver is listening.
    const receiver = opened(await createWebhookReceiver({ rejectUnverified: false }));
    await load(`
name: acme
recipients:
  - sign: 1h
data:
  clients:
    - clientKey: acmeClient
      fullname: Acme
      users:
        - { userKey: annUser, fullname: Ann Acme, email: ann@acme.example, default: true }
      templates:
        - { templateKey: acmeNda, name: Acme NDA, value: <p>NDA</p> }
      webhooks:
        - { url: "${receiver.url}", created: true, sent: true, fullySigned: true }
      contracts:
        - { contractKey: acmeDeal, name: Acme deal, templateKey: acmeNda, send: true, recipients: [{ email: bob@example.com }] }
`);
    receiver.useSecret(t.sandbox.services.store.webhooks.where('client', 'acmeClient')[0]!.secret);
    const c = (await t.control('/contracts/acmeDeal')).body;
    expect(c).toMatchObject({ clientKey: 'acmeClient', status: 'Sent', value: '<p>NDA</p>' });
    expect(t.sandbox.services.store.users.get('annUser')).toMatchObject({ clientKey: 'acmeClient', default: true });
    await advance('1h');
    expect((await t.control('/contracts/acmeDeal')).body.status).toBe('Fully signed');
    const deliveries = (await t.control('/webhook-deliveries')).body.deliveries;
    expect(deliveries.map((d: any) => [d.event, d.status])).toEqual([
      ['contract.created', 'delivered'],
      ['contract.sent', 'delivered'],
      ['contract.fully_signed', 'delivered'],
    ]);
    expect(deliveries[0].cause).toBe('scenario:acme:data');
    expect(deliveries[2].cause).toBe('scenario:acme:rule-1');
    expect(receiver.deliveries.map((d) => d.verified)).toEqual([false, false, true]);
  });
});
