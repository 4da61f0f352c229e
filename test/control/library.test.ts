import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, SandboxControlError, ScenarioError, startSandbox } from '../../src/index.js';
import { scratchDir } from '../support/scratch.js';

const running: RunningSandbox[] = [];
const start = async (...args: Parameters<typeof startSandbox>) => {
  const sandbox = await startSandbox(...args);
  running.push(sandbox);
  return sandbox;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

const post = (sandbox: RunningSandbox, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey!, ...headers },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('startSandbox', () => {
  it('starts on a free port and answers the API and the control API there', async () => {
    const sandbox = await start();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.port).toBeGreaterThan(0);
    expect(sandbox).toMatchObject({
      apiKey: 'sandboxApiKey',
      secret: 'sandboxSecret',
      clientKey: 'demoClient',
      apiKeyHeader: 'X-Service-Key',
      tls: undefined,
    });
    const res = await post(sandbox, '/api/user', { data: { action: 'list', clientKey: sandbox.clientKey } });
    expect(res.status).toBe(200);
    expect((await fetch(`${sandbox.url}/__sandbox/health`)).status).toBe(200);
  });

  it('runs many sandboxes in one process, each with its own port, data and clock', async () => {
    const [a, b, c] = await Promise.all([
      start({ clock: 'frozen', start: '2026-01-01T00:00:00Z' }),
      start({ clock: 'frozen', start: '2026-01-01T00:00:00Z' }),
      start({ clock: 'frozen', start: '2026-01-01T00:00:00Z' }),
    ]);
    expect(new Set([a!.port, b!.port, c!.port]).size).toBe(3);
    await post(a!, '/api/contract', {
      data: { action: 'create', clientKey: 'demoClient', contract: { name: 'Only in A', value: '<p/>' } },
    });
    await a!.clock.advance('2h');
    const list = async (s: RunningSandbox) =>
      (await post(s, '/api/contract', { data: { action: 'list', clientKey: 'demoClient' } })).body.contracts.map(
        (x: { name: string }) => x.name,
      );
    expect(await list(a!)).toEqual(['Only in A']);
    expect(await list(b!)).toEqual([]);
    expect((await a!.clock.now()).toISOString()).toBe('2026-01-01T02:00:00.000Z');
    expect((await b!.clock.now()).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(b!.clock.nowSync().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(await a!.requests({ path: '/api/contract' })).toHaveLength(2);
    expect(await b!.requests({ path: '/api/contract' })).toHaveLength(1);
  });

  it('takes the CLI options: credentials, key header, seed', async () => {
    const sandbox = await start({ apiKey: 'myKey', secret: 'mySecret', apiKeyHeader: 'X-Provider-Key', seed: 7 });
    expect(sandbox).toMatchObject({ apiKey: 'myKey', secret: 'mySecret', apiKeyHeader: 'X-Provider-Key' });
    const res = await post(
      sandbox,
      '/api/user',
      { data: { action: 'list', clientKey: 'demoClient' } },
      { 'x-provider-key': 'myKey' },
    );
    expect(res.status).toBe(200);
    const same = await start({ seed: 7 });
    const created = await Promise.all(
      [sandbox, same].map(
        async (s) =>
          (
            await post(
              s,
              '/api/contract',
              { data: { action: 'create', clientKey: 'demoClient', contract: { name: 'x', value: '<p/>' } } },
              { 'x-provider-key': s.apiKey!, 'x-service-key': s.apiKey! },
            )
          ).body.contract.contractKey,
      ),
    );
    expect(created[0]).toBe(created[1]);
  });

  it('frees its port on close', async () => {
    const sandbox = await startSandbox();
    await sandbox.close();
    const server = createServer();
    await new Promise<void>((resolve, reject) =>
      server.once('error', reject).listen(sandbox.port, '127.0.0.1', () => resolve()),
    );
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses bad options with a message naming them', async () => {
    await expect(startSandbox({ port: 70000 })).rejects.toThrow(/port must be a whole number/);
    await expect(startSandbox({ log: 'xml' as never })).rejects.toThrow(/log format/);
    await expect(startSandbox({ journalLimit: -1 })).rejects.toThrow(/journal limit/);
  });

  it('says when the port is taken', async () => {
    const first = await start();
    await expect(startSandbox({ port: first.port })).rejects.toThrow(/already in use/);
  });
});

describe('the documented library calls', () => {
  const contractWithSigner = async (sandbox: RunningSandbox) => {
    const created = await post(sandbox, '/api/contract', {
      data: {
        action: 'create',
        clientKey: sandbox.clientKey,
        contract: { name: 'NDA', value: '<p>x</p>' },
        recipients: [{ email: 'ada@example.com', fullname: 'Ada' }],
      },
    });
    const recipients = await post(sandbox, '/api/recipient', {
      data: { action: 'list', clientKey: sandbox.clientKey, contractKey: created.body.contract.contractKey },
    });
    return {
      contractKey: created.body.contract.contractKey as string,
      recipientKey: recipients.body.recipients[0].recipientKey as string,
    };
  };

  it('sandbox.outbox.list and .clear read and empty the outbox', async () => {
    const sandbox = await start({ clock: 'frozen' });
    const { recipientKey } = await contractWithSigner(sandbox);
    const emails = await sandbox.outbox.list({ recipientKey });
    expect(emails).toEqual([expect.objectContaining({ kind: 'signing_request', to: 'ada@example.com' })]);
    expect(await sandbox.outbox.clear()).toBe(1);
    expect(await sandbox.outbox.list()).toEqual([]);
    // One name per thing: the outbox and the delivery log are reached only through outbox.* and webhooks.*.
    for (const gone of ['emails', 'clearEmails', 'deliveries', 'redeliver']) expect(sandbox).not.toHaveProperty(gone);
  });

  it('sandbox.webhooks: deliveries, delivery, redeliver, startOutage/endOutage and receiver faults', async () => {
    const sandbox = await start({ clock: 'frozen' });
    const hook = await post(sandbox, '/api/webhook', {
      data: {
        action: 'create',
        clientKey: sandbox.clientKey,
        webhooks: [{ url: 'http://127.0.0.1:9/hooks', created: true }],
      },
    });
    const webhookKey = hook.body.webhooks[0].webhookKey as string;
    const outage = sandbox.webhooks.startOutage({ webhookKey, mode: { status: 503 } });
    await contractWithSigner(sandbox);
    await sandbox.clock.advance('0s');
    const [delivery] = await sandbox.webhooks.deliveries({ webhookKey });
    expect(delivery).toMatchObject({ event: 'contract.created', status: 'pending', attempts: [{ statusCode: 503 }] });
    expect(await sandbox.webhooks.delivery(delivery!.id)).toEqual(delivery);
    sandbox.webhooks.endOutage(outage);
    expect((await sandbox.webhooks.redeliver(delivery!.id)).attempts).toHaveLength(2);
    const ids = await sandbox.webhooks.faults.set({ kind: 'duplicate', times: 1 });
    expect(await sandbox.webhooks.faults.list()).toEqual([expect.objectContaining({ id: ids[0], kind: 'duplicate' })]);
    await sandbox.webhooks.faults.remove(ids[0]!);
    expect(await sandbox.webhooks.faults.clear()).toBe(0);
    await expect(sandbox.webhooks.delivery('dlv_nope')).rejects.toMatchObject({
      name: 'SandboxControlError',
      status: 404,
    });
  });

  it('sandbox.recipients.sign answers after the first delivery attempts it caused have settled', async () => {
    const sandbox = await start({ clock: 'frozen' });
    await post(sandbox, '/api/webhook', {
      data: {
        action: 'create',
        clientKey: sandbox.clientKey,
        webhooks: [{ url: 'http://127.0.0.1:9/hooks', signed: true }],
      },
    });
    const { recipientKey } = await contractWithSigner(sandbox);
    await sandbox.recipients.sign(recipientKey);
    const [delivery] = await sandbox.webhooks.deliveries({ event: 'contract.signed' });
    expect(delivery!.attempts).toHaveLength(1);
  });

  it('sandbox.scenarios.loadFile and load(path) read a scenario file; a bad one throws a ScenarioError with its problems', async () => {
    const dir = scratchDir('esign-scenario-');
    const good = join(dir, 'quiet.yaml');
    writeFileSync(good, 'name: quiet\nrecipients:\n  - { match: {}, never: true }\n');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'name: bad\nrecipients:\n  - { match: {}, sign: soon }\n');
    const sandbox = await start({ clock: 'frozen' });
    expect(await sandbox.scenarios.loadFile(good)).toMatchObject({ name: 'quiet', source: `file:${good}` });
    expect(await sandbox.scenarios.load(good)).toMatchObject({
      name: 'quiet',
      notes: ['replaced the active scenario "quiet"'],
    });
    const error = await sandbox.scenarios.load(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    expect(error).toBeInstanceOf(SandboxControlError);
    expect(error).toMatchObject({ status: 400, problems: [{ file: bad, line: 3, path: 'recipients[0].sign' }] });
  });
});
