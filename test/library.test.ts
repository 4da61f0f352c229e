import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../src/index.js';

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
  fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey!, ...headers }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('startSandbox', () => {
  it('starts on a free port and answers the API and the control API there', async () => {
    const sandbox = await start();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.port).toBeGreaterThan(0);
    expect(sandbox).toMatchObject({ apiKey: 'sandboxApiKey', secret: 'sandboxSecret', clientKey: 'demoClient', apiKeyHeader: 'X-Service-Key', tls: undefined });
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
    await post(a!, '/api/contract', { data: { action: 'create', clientKey: 'demoClient', contract: { name: 'Only in A', value: '<p/>' } } });
    await a!.clock.advance('2h');
    const list = async (s: RunningSandbox) => (await post(s, '/api/contract', { data: { action: 'list', clientKey: 'demoClient' } })).body.contracts.map((x: { name: string }) => x.name);
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
    const res = await post(sandbox, '/api/user', { data: { action: 'list', clientKey: 'demoClient' } }, { 'x-provider-key': 'myKey' });
    expect(res.status).toBe(200);
    const same = await start({ seed: 7 });
    const created = await Promise.all(
      [sandbox, same].map(async (s) => (await post(s, '/api/contract', { data: { action: 'create', clientKey: 'demoClient', contract: { name: 'x', value: '<p/>' } } }, { 'x-provider-key': s.apiKey!, 'x-service-key': s.apiKey! })).body.contract.contractKey),
    );
    expect(created[0]).toBe(created[1]);
  });

  it('frees its port on close', async () => {
    const sandbox = await startSandbox();
    await sandbox.close();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(sandbox.port, '127.0.0.1', () => resolve()));
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
