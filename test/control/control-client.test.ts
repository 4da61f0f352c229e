/**
 * The same assertions against the library (startSandbox, in-process) and the control client (over HTTP):
 * both must answer the same shapes, so a suite can switch between them.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type RunningSandbox,
  SandboxControlError,
  type SandboxControl,
  createControlClient,
  startSandbox,
} from '../../src/index.js';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';

const START = '2026-03-01T09:00:00.000Z';

const variants: [string, (s: RunningSandbox) => SandboxControl][] = [
  ['startSandbox (in-process)', (s) => s],
  ['createControlClient (HTTP)', (s) => createControlClient(s.url)],
];

describe.each(variants)('%s', (_name, controlOf) => {
  let sandbox: RunningSandbox;
  let control: SandboxControl;
  beforeEach(async () => {
    sandbox = await startSandbox({ clock: 'frozen', start: START });
    control = controlOf(sandbox);
  });
  afterEach(() => sandbox.close());

  const api = (path: string, body: unknown, apiKey = sandbox.apiKey!) =>
    fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-key': apiKey },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const contracts = async (apiKey = sandbox.apiKey!, clientKey = sandbox.clientKey!) =>
    (await api('/api/contract', { data: { action: 'list', clientKey } }, apiKey)).body.contracts as { name: string }[];

  it('reads and moves the clock', async () => {
    expect(await control.clock.now()).toEqual(new Date(START));
    expect(await control.clock.state()).toEqual({ now: START, mode: 'frozen', pendingTimers: 0 });
    expect(await control.clock.advance('1h30m')).toMatchObject({ now: '2026-03-01T10:30:00.000Z', mode: 'frozen' });
    expect(await control.clock.set(new Date('2026-04-01T00:00:00Z'))).toMatchObject({
      now: '2026-04-01T00:00:00.000Z',
    });
    expect((await control.clock.unfreeze()).mode).toBe('real');
    expect((await control.clock.freeze()).mode).toBe('frozen');
  });

  it('answers health', async () => {
    expect(await control.health()).toMatchObject({
      status: 'ok',
      clock: 'frozen',
      now: START,
      counts: { platforms: 1, clients: 1 },
    });
  });

  it('makes isolated tenants and resets one without touching the others', async () => {
    const tenant = await control.createPlatform({ name: 'file A' });
    expect(Object.keys(tenant).sort()).toEqual(['apiKey', 'platformId', 'secret']);
    await api('/api/contract', {
      data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: 'Demo', value: '<p/>' } },
    });
    const client = (
      await api('/api/client', { data: { action: 'create', client: { fullname: 'Tenant A' } } }, tenant.apiKey)
    ).body.client;
    await api(
      '/api/contract',
      { data: { action: 'create', clientKey: client.clientKey, contract: { name: 'A', value: '<p/>' } } },
      tenant.apiKey,
    );
    expect((await contracts(tenant.apiKey, client.clientKey)).map((c) => c.name)).toEqual(['A']);

    const result = await control.reset({ apiKey: tenant.apiKey });
    expect(result).toMatchObject({
      scope: 'platform',
      apiKey: tenant.apiKey,
      platformId: tenant.platformId,
      restored: 0,
    });
    expect(
      (await api('/api/contract', { data: { action: 'list', clientKey: client.clientKey } }, tenant.apiKey)).status,
    ).toBe(404);
    expect((await contracts()).map((c) => c.name)).toEqual(['Demo']);

    expect(await control.reset()).toEqual({ scope: 'all' });
    expect(await contracts()).toEqual([]);
  });

  it('answers the journal with filters', async () => {
    await api('/api/contract', { data: { action: 'list', clientKey: sandbox.clientKey } });
    await api('/api/contract', {
      data: { action: 'archive', clientKey: sandbox.clientKey, contract: { contractKey: 'nope' } },
    });
    const failures = await control.requests({ path: '/api/contract', status: '4xx' });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      method: 'POST',
      path: '/api/contract',
      action: 'archive',
      status: 404,
      at: START,
      response: { body: { message: 'Contract not found' } },
    });
    expect(failures[0]!.request.headers['x-service-key']).toBe('[redacted]');
    expect((await control.requests({ action: 'list' })).map((e) => e.status)).toEqual([200]);
    await control.clearRequests();
    expect(await control.requests({ path: '/api/*' })).toEqual([]);
  });

  it('takes a snapshot and puts it back', async () => {
    await api('/api/contract', {
      data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: 'Kept', value: '<p/>' } },
    });
    const snapshot = await control.snapshot();
    expect(snapshot).toMatchObject({ version: 1, clock: { now: START, mode: 'frozen' } });
    await api('/api/contract', {
      data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: 'Dropped', value: '<p/>' } },
    });
    await control.clock.advance('1d');
    await control.restore(snapshot);
    expect((await contracts()).map((c) => c.name)).toEqual(['Kept']);
    expect((await control.clock.state()).now).toBe(START);
  });

  it('expires tokens', async () => {
    await fetch(`${sandbox.url}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { action: 'create', apiKey: sandbox.apiKey, secret: sandbox.secret } }),
    });
    expect(await control.expireTokens()).toEqual({ expired: 1 });
    expect(await control.expireTokens()).toEqual({ expired: 0 });
  });

  it('acts as recipients and shows the emails the service would have sent', async () => {
    const created = await api('/api/contract', {
      data: {
        action: 'create',
        clientKey: sandbox.clientKey,
        contract: { name: 'Lease', value: '<p/>' },
        recipients: [
          { fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 },
          { fullname: 'Alan Turing', email: 'alan@example.com', action: 'approve', position: 2 },
        ],
      },
    });
    expect(created.status).toBe(201);
    const [request] = await control.outbox.list({ to: 'grace@example.com' });
    expect(request).toMatchObject({
      kind: 'signing_request',
      to: 'grace@example.com',
      contractKey: created.body.contract.contractKey,
      sentAt: START,
    });
    expect(await control.outbox.list({ to: 'alan@example.com' })).toEqual([]);

    const signed = await control.recipients.sign(request!.recipientKey!, { signature: 'G. Hopper' });
    expect(signed).toMatchObject({
      recipient: { state: 'signed', signature: 'G. Hopper', fullname: 'Grace Hopper' },
      contract: { contractKey: created.body.contract.contractKey },
    });
    const [approval] = await control.outbox.list({ kind: 'approval_request' });
    expect(approval!.to).toBe('alan@example.com');
    const approved = await control.recipients.approve(approval!.recipientKey!);
    expect(approved.recipient.state).toBe('approved');

    const twice = await control.recipients.approve(approval!.recipientKey!).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(SandboxControlError);
    expect((twice as SandboxControlError).status).toBe(409);
    await control.outbox.clear();
    expect(await control.outbox.list()).toEqual([]);
  });

  it('loads, lists and unloads scenarios', async () => {
    const { bundled, active } = await control.scenarios.list();
    expect(bundled.map((b) => b.name)).toContain('happy-path');
    expect(active).toEqual([]);
    const loaded = await control.scenarios.load('happy-path');
    expect(loaded).toMatchObject({ name: 'happy-path', source: 'bundled:happy-path' });
    expect((await control.scenarios.list()).active.map((a) => a.name)).toEqual(['happy-path']);
    expect((await control.scenarios.unload('happy-path')).name).toBe('happy-path');
    expect((await control.scenarios.list()).active).toEqual([]);
  });

  it('loads a scenario written as YAML', async () => {
    const yaml = 'name: my-faults\nfaults:\n  - match: { path: /api/user }\n    status: 503\n';
    expect((await control.scenarios.load(yaml)).name).toBe('my-faults');
    expect((await api('/api/user', { data: { action: 'list', clientKey: sandbox.clientKey } })).status).toBe(503);
  });

  it('sets, lists and removes API faults', async () => {
    const [id] = await control.faults.set({ match: { path: '/api/user' }, status: 503 });
    const listUsers = () => api('/api/user', { data: { action: 'list', clientKey: sandbox.clientKey } });
    expect((await listUsers()).status).toBe(503);
    expect((await control.faults.list()).map((f) => [f.id, f.source, f.status])).toEqual([[id, 'control', 503]]);
    await control.faults.remove(id!);
    expect((await listUsers()).status).toBe(200);
    expect(await control.faults.set([{ status: 500 }, { status: 502, match: { path: '/api/contract' } }])).toHaveLength(
      2,
    );
    expect(await control.faults.clear()).toBe(2);
    expect(await control.faults.list()).toEqual([]);
    // The journal shows what the client received, faults included.
    expect((await control.requests({ path: '/api/user', status: '5xx' })).map((e) => e.status)).toEqual([503]);
  });

  describe('webhook deliveries', () => {
    let receiver: WebhookReceiver;
    beforeEach(async () => {
      receiver = await createWebhookReceiver();
    });
    afterEach(() => receiver.close());

    it('lists deliveries and redelivers one', async () => {
      const created = await api('/api/webhook', {
        data: { action: 'create', clientKey: sandbox.clientKey, webhooks: [{ url: receiver.url, created: true }] },
      });
      receiver.useSecret(created.body.webhooks[0].secret);
      await api('/api/contract', {
        data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: 'Hooked', value: '<p/>' } },
      });
      await control.clock.advance(0);
      const deliveries = await control.webhooks.deliveries({ event: 'contract.created' });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ event: 'contract.created', status: 'delivered', url: receiver.url });
      const again = await control.webhooks.redeliver(deliveries[0]!.id);
      expect(again.attempts.map((a) => a.trigger)).toEqual(['first', 'redeliver']);
      expect(await control.webhooks.deliveries({ status: 'failed' })).toEqual([]);
    });
  });

  it.each<[string, (c: SandboxControl) => Promise<unknown>, number]>([
    ['an unreadable duration', (c) => c.clock.advance('soon'), 400],
    ['an unknown tenant', (c) => c.reset({ apiKey: 'nobody' }), 404],
    ['a duplicate platform apiKey', (c) => c.createPlatform({ apiKey: sandbox.apiKey! }), 409],
    ['a snapshot without a store', (c) => c.restore({ version: 1 } as never), 400],
    ['an unknown delivery', (c) => c.webhooks.redeliver('nope'), 404],
    ['an unknown recipient', (c) => c.recipients.view('nope'), 404],
    ['an unknown bundled scenario', (c) => c.scenarios.load('no-such-scenario'), 404],
    ['a scenario that is not valid', (c) => c.scenarios.load('name: broken\nrules: 12\n'), 400],
    ['a fault with neither status nor latency', (c) => c.faults.set({ match: { path: '/api/user' } }), 400],
    ['an unknown fault', (c) => c.faults.remove('nope'), 404],
  ])('refuses %s with a SandboxControlError', async (_what, call, status) => {
    const error = await call(control).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxControlError);
    expect((error as SandboxControlError).status).toBe(status);
    expect((error as SandboxControlError).message.length).toBeGreaterThan(5);
  });
});

describe('the control client', () => {
  it('waits until a sandbox is ready and says so when none answers', async () => {
    const sandbox = await startSandbox();
    const client = createControlClient(`${sandbox.url}/`);
    expect(client.url).toBe(sandbox.url);
    expect((await client.waitUntilReady()).status).toBe('ok');
    await sandbox.close();
    await expect(client.waitUntilReady({ timeoutMs: 200, intervalMs: 50 })).rejects.toThrow(/not ready after 200 ms/);
  });
});

describe('a control client whose sandbox is not running', () => {
  it('fails every call with a SandboxControlError that says where it looked and what to do', async () => {
    // A port that was free a moment ago: nothing answers there.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const client = createControlClient(`http://127.0.0.1:${port}`);
    const error = await client.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxControlError);
    expect(error).toMatchObject({ status: 0 });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Cannot reach the sandbox at http://127\\.0\\.0\\.1:${port} \\(GET /__sandbox/health: ECONNREFUSED\\); is it running\\?`,
      ),
    );
    const waited = await client.waitUntilReady({ timeoutMs: 50, intervalMs: 10 }).catch((e: unknown) => e);
    expect(waited).toBeInstanceOf(SandboxControlError);
    expect((waited as Error).message).toMatch(/was not ready after 50 ms: Cannot reach the sandbox/);
  });
});
