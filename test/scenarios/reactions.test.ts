import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { makePdf, upload } from '../support/documents-kit.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { ALL_FLAGS } from '../support/webhook-support.js';

let t: TestSandbox;
afterEach(() => t?.close());

const load = async (yaml: string) => {
  const res = await t.control('/scenarios', { yaml });
  if (res.status !== 201) throw new Error(`load: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const advance = async (by: string) => {
  const res = await t.control('/clock/advance', { by });
  if (res.status !== 200) throw new Error(`advance: ${res.status} ${JSON.stringify(res.body)}`);
};
const logOf = async (name: string): Promise<string[]> =>
  (await t.control(`/scenarios/${name}`)).body.log.map(
    (l: any) => `${l.at.slice(11, 19)} ${l.cause.split(':').pop()} ${l.outcome}: ${l.what}`,
  );
const recipient = (email: string) => t.sandbox.services.store.recipients.all().find((r) => r.email === email)!;
const act = async (email: string, verb: string) => {
  const res = await t.control(`/recipients/${recipient(email).recipientKey}/${verb}`, {});
  if (res.status !== 200) throw new Error(`${verb}: ${res.status} ${JSON.stringify(res.body)}`);
};

/** Two signers in turn, position 1 then 2, on a contract the scenario's data sends at load. */
const CONTRACT = `
data:
  clients:
    - clientKey: demoClient
      contracts:
        - name: Lease
          value: <p>Terms</p>
          send: true
          recipients:
            - { fullname: Ann, email: ann@example.com, action: sign, position: 1 }
            - { fullname: Bob, email: bob@example.com, action: sign, position: 2 }
`;
const lease = () => t.sandbox.services.store.contracts.all().find((c) => c.name === 'Lease')!;

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
    t = await testSandbox(FROZEN);
    await load(reactingTo(when));
    await cause();
    const done = (await logOf('r')).filter((l) => l.includes('reaction done'));
    expect(done).toEqual([`09:00:00 reaction done: clearFaults: 0 fault(s) removed (reacting to ${reason})`]);
  });

  it('reacts to contract.approved', async () => {
    t = await testSandbox(FROZEN);
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
    t = await testSandbox(FROZEN);
    await load('name: r\ntimeline:\n  - { id: reaction, when: document.uploaded, clearFaults: true }\n');
    const auth = await t.demoAuth();
    const created = await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'Scan', contractType: 'pdf' } } },
      auth,
    );
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
    t = await testSandbox(FROZEN);
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
    t = await testSandbox(FROZEN);
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
    t = await testSandbox(FROZEN);
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
    t = await testSandbox(FROZEN);
    await load(`
name: r
timeline:
  - { id: revoke, when: contract.sent, revokeTokens: all }
`);
    const auth = await t.demoAuth();
    const sent = await t.post(
      '/api/contract',
      {
        data: {
          action: 'create',
          contract: { name: 'Deal', value: '<p>x</p>' },
          recipients: [{ email: 'x@example.com', action: 'sign' }],
        },
      },
      auth,
    );
    expect(sent.status).toBe(201);
    const next = await t.post('/api/contract', { data: { action: 'list' } }, auth);
    expect(next.status).toBe(401);
    expect(next.body.message).toMatch(/revoked/i);
  });

  it('takes the receiver down before the delivery of the event it reacts to goes out', async () => {
    t = await testSandbox(FROZEN);
    const receiver = await createWebhookReceiver();
    try {
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
    } finally {
      await receiver.close();
    }
  });

  it('lets a recipient act in reaction, and a reaction wait for another step', async () => {
    t = await testSandbox(FROZEN);
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
