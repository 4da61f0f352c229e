import { describe, expect, it } from 'vitest';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { createContract } from '../support/contract-walk.js';
import { makePdf, upload } from '../support/documents-kit.js';
import { DEMO, closeAfterEach, sandboxEachTest } from '../support/helpers.js';
import { LEASE_FOR_ANN_THEN_BOB as CONTRACT, scenarioSteps } from '../support/scenario-kit.js';
import { ALL_FLAGS } from '../support/webhook-support.js';

const t = sandboxEachTest();
const opened = closeAfterEach();
const { load, advance, act, contractNamed } = scenarioSteps(() => t);
const logOf = async (name: string): Promise<string[]> =>
  (await t.control(`/scenarios/${name}`)).body.log.map(
    (l: any) => `${l.at.slice(11, 19)} ${l.cause.split(':').pop()} ${l.outcome}: ${l.what}`,
  );

const lease = () => contractNamed('Lease')!;

/** A reaction that always succeeds and names its trigger in the log. */
const reactingTo = (when: string, extra = '') => `
name: r
timeline:
  - id: reaction
    when: ${when}${extra}
    clearFaults: true
${CONTRACT}`;

describe('triggered steps: each trigger kind', () => {
  const archive = async () => {
    const auth = await t.demoAuth();
    await t.post(
      '/api/contract',
      { data: { action: 'archive', contract: { contractKey: lease().contractKey } } },
      auth,
    );
  };
  const KINDS: [string, string, () => Promise<void>, string][] = [
    ['contract.sent', 'contract.sent', async () => {}, 'contract.sent of "Lease"'],
    [
      'contract.seen',
      'contract.seen',
      () => act('ann@example.com', 'view'),
      'contract.seen of "Lease" by ann@example.com',
    ],
    [
      'contract.signed',
      'contract.signed',
      () => act('ann@example.com', 'sign'),
      'contract.signed of "Lease" by ann@example.com',
    ],
    [
      'contract.fully_signed',
      'contract.fully_signed',
      async () => {
        await act('ann@example.com', 'sign');
        await act('bob@example.com', 'sign');
      },
      'contract.fully_signed of "Lease"',
    ],
    ['contract.archived', 'contract.archived', archive, 'contract.archived of "Lease"'],
    ['token.created', 'token.created', async () => void (await t.platformToken()), 'token.created (platform token)'],
    [
      'an API request',
      '{ request: { path: /api/contract, action: list } }',
      async () => void (await t.post('/api/contract', { data: { action: 'list' } }, await t.demoAuth())),
      'POST /api/contract (list) answered 200',
    ],
  ];
  it.each(KINDS)('reacts to %s', async (_what, when, cause, reason) => {
    await load(reactingTo(when));
    await cause();
    const done = (await logOf('r')).filter((l) => l.includes('reaction done'));
    expect(done).toEqual([`09:00:00 reaction done: clearFaults: 0 fault(s) removed (reacting to ${reason})`]);
  });

  it('reacts to contract.approved', async () => {
    await load(`
name: r
timeline:
  - id: reaction
    when: contract.approved
    clearFaults: true
data:
  clients:
    - clientKey: demoClient
      contracts:
        - name: PO
          value: <p>x</p>
          send: true
          recipients: [{ email: boss@example.com, action: approve }]
`);
    await act('boss@example.com', 'approve');
    expect((await logOf('r')).filter((l) => l.includes('reaction done'))).toEqual([
      '09:00:00 reaction done: clearFaults: 0 fault(s) removed (reacting to contract.approved of "PO" by boss@example.com)',
    ]);
  });

  it('reacts to a document uploaded', async () => {
    await load('name: r\ntimeline:\n  - { id: reaction, when: document.uploaded, clearFaults: true }\n');
    const auth = await t.demoAuth();
    const scan = { name: 'Scan', contractType: 'pdf' };
    const created = await createContract(t, auth, scan, undefined, { clientKey: DEMO.clientKey });
    const key = created.body.contract.contractKey;
    const res = await upload(t, `contractKey=${key}&clientKey=${DEMO.clientKey}`, await makePdf(), auth as any);
    expect(res.status).toBe(201);
    expect((await logOf('r')).filter((l) => l.includes('done'))).toEqual([
      `09:00:00 reaction done: clearFaults: 0 fault(s) removed (reacting to document.uploaded for ${key})`,
    ]);
  });
});

describe('triggered steps: narrowing, delay and count', () => {
  it('narrows to a recipient by position or email, and to a contract by name', async () => {
    await load(`
name: r
timeline:
  - { id: by-position, when: { event: contract.signed, recipient: { position: 2 } }, clearFaults: true }
  - { id: by-email, when: { event: contract.signed, recipient: { email: "ann@*" } }, clearFaults: true }
  - { id: other-contract, when: { event: contract.signed, contract: { name: "Other*" } }, clearFaults: true }
  - { id: this-contract, when: { event: contract.signed, contract: { name: "Lea*" }, client: demoClient }, clearFaults: true }
${CONTRACT}`);
    await act('ann@example.com', 'sign');
    expect(
      (await logOf('r')).filter((l) => l.includes('done') && !l.includes(' data ')).map((l) => l.split(' ')[1]),
    ).toEqual(['by-email', 'this-contract']);
    await act('bob@example.com', 'sign');
    expect(
      (await logOf('r')).filter((l) => l.includes('done') && !l.includes(' data ')).map((l) => l.split(' ')[1]),
    ).toEqual(['by-email', 'this-contract', 'by-position']);
  });

  it('runs a reaction `after` a delay, as a scheduled step', async () => {
    await load(`
name: r
timeline:
  - { id: later, when: contract.signed, after: 30m, clearFaults: true }
${CONTRACT}`);
    await act('ann@example.com', 'sign');
    expect(await logOf('r')).toContain(
      '09:00:00 later scheduled: reacting to contract.signed of "Lease" by ann@example.com: runs at 2026-03-01T09:30:00.000Z',
    );
    await advance('29m');
    expect((await logOf('r')).some((l) => l.includes('later done'))).toBe(false);
    await advance('1m');
    expect((await logOf('r')).filter((l) => l.includes('later done'))).toEqual([
      '09:30:00 later done: clearFaults: 0 fault(s) removed (reacting to contract.signed of "Lease" by ann@example.com)',
    ]);
  });

  it('reacts once by default, `times` times, or every time', async () => {
    await load(`
name: r
timeline:
  - { id: once, when: token.created, clearFaults: true }
  - { id: twice, when: token.created, times: 2, clearFaults: true }
  - { id: always, when: token.created, times: every, clearFaults: true }
`);
    for (let i = 0; i < 4; i++) await t.platformToken();
    const count = async (id: string) => (await logOf('r')).filter((l) => l.includes(` ${id} done`)).length;
    expect([await count('once'), await count('twice'), await count('always')]).toEqual([1, 2, 4]);
  });
});

describe('triggered steps: every step kind works as a reaction', () => {
  it('revokes tokens right after send, before the integration’s next request', async () => {
    await load(`
name: r
timeline:
  - { id: revoke, when: contract.sent, revokeTokens: all }
`);
    const auth = await t.demoAuth();
    const sent = await createContract(t, auth, 'Deal', [{ email: 'x@example.com', action: 'sign' }]);
    expect(sent.status).toBe(201);
    const next = await t.post('/api/contract', { data: { action: 'list' } }, auth);
    expect(next.status).toBe(401);
    expect(next.body.message).toMatch(/revoked/i);
  });

  it('takes the receiver down before the delivery of the event it reacts to goes out', async () => {
    const receiver = opened(await createWebhookReceiver());
    const hook = await t.post(
      '/api/webhook',
      { data: { action: 'create', webhooks: [{ url: receiver.url, ...ALL_FLAGS }] } },
      await t.demoAuth(),
    );
    receiver.useSecret(hook.body.webhooks[0].secret);
    await load(`
name: r
timeline:
  - { id: down, when: contract.fully_signed, webhookOutage: { for: 6h, status: 503 } }
  - { id: bob-signs, when: { event: contract.signed, recipient: { position: 1 } }, act: { match: { position: 2 }, verb: sign } }
${CONTRACT}`);
    await act('ann@example.com', 'sign');
    const deliveries = (await t.control('/webhook-deliveries')).body.deliveries;
    const firstCode = (event: string) =>
      deliveries.filter((d: any) => d.event === event).map((d: any) => d.attempts[0]?.statusCode);
    // Sent at load, before the outage; the full signature's first attempt already meets it.
    expect(firstCode('contract.sent')).toEqual([200]);
    expect(firstCode('contract.fully_signed')).toEqual([503]);
    expect(lease().status).toBe('Fully signed');
  });

  it('lets a recipient act in reaction, and a reaction wait for another step', async () => {
    await load(`
name: r
timeline:
  - { id: expire, at: 1h, expireTokens: all }
  - { id: then-faults, when: { step: expire }, addFaults: [{ id: slow, status: 503, times: 1 }] }
`);
    await advance('1h');
    expect(await logOf('r')).toEqual([
      '10:00:00 expire done: expireTokens: 0 token(s) expired',
      '10:00:00 then-faults done: addFaults: fault(s) r:slow set (reacting to step expire ran)',
    ]);
  });
});
