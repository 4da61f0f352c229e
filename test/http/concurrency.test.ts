/**
 * Hundreds of parallel requests across tenants on a real port: every key unique, no write lost, and no
 * tenant ever sees another's records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';

const TENANTS = 6;
const CONTRACTS_PER_TENANT = 60;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7 });
});
afterAll(() => sandbox.close());

async function post(path: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

interface Tenant {
  platformToken: string;
  clientKey: string;
  clientToken: string;
  created: string[];
}

/** A platform (control API), a client in it, and tokens for both. */
async function tenant(i: number): Promise<Tenant> {
  const platform = await post('/__sandbox/platforms', { name: `Tenant ${i}` });
  expect(platform.status).toBe(201);
  const ptoken = await post('/api/token', {
    data: { action: 'create', apiKey: platform.body.apiKey, secret: platform.body.secret },
  });
  const client = await post(
    '/api/client',
    { data: { action: 'create', client: { fullname: `Client ${i}`, email: `c${i}@example.com` } } },
    ptoken.body.access_token,
  );
  expect(client.status).toBe(201);
  const ctoken = await post(
    '/api/token',
    { action: 'create', clientKey: client.body.client.clientKey },
    ptoken.body.access_token,
  );
  return {
    platformToken: ptoken.body.access_token,
    clientKey: client.body.client.clientKey,
    clientToken: ctoken.body.access_token,
    created: [],
  };
}

describe('concurrency across tenants', () => {
  it('creates hundreds of contracts in parallel with unique keys, none lost, none visible to another tenant', async () => {
    const tenants = await Promise.all(Array.from({ length: TENANTS }, (_, i) => tenant(i)));

    // Every tenant's creates, interleaved, all in flight at once.
    const requests = tenants.flatMap((t, ti) =>
      Array.from({ length: CONTRACTS_PER_TENANT }, async (_, i) => {
        const res = await post(
          '/api/contract',
          { data: { action: 'create', contract: { name: `t${ti}-${i}`, value: `<p>${ti}/${i}</p>` } } },
          t.clientToken,
        );
        expect(res.status).toBe(201);
        t.created.push(res.body.contract.contractKey);
      }),
    );
    await Promise.all(requests);

    const all = tenants.flatMap((t) => t.created);
    expect(all).toHaveLength(TENANTS * CONTRACTS_PER_TENANT);
    expect(new Set(all).size).toBe(all.length);

    const lists = await Promise.all(
      tenants.map((t) => post('/api/contract', { data: { action: 'list' } }, t.clientToken)),
    );
    lists.forEach((list, i) => {
      expect(list.status).toBe(200);
      const keys = list.body.contracts.map((c: { contractKey: string }) => c.contractKey).sort();
      expect(keys).toEqual([...tenants[i]!.created].sort());
      expect(list.body.contracts.every((c: { name: string }) => c.name.startsWith(`t${i}-`))).toBe(true);
    });
  });

  it('answers 404 in parallel for every contract of another tenant, and 404 for its client', async () => {
    const [a, b] = await Promise.all([tenant(100), tenant(101)]);
    const mine = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post(
          '/api/contract',
          { data: { action: 'create', contract: { name: `a${i}`, value: '<p>a</p>' } } },
          a!.clientToken,
        ),
      ),
    );
    const keys = mine.map((r) => r.body.contract.contractKey as string);
    const probes = await Promise.all([
      // b's client token names a's contracts
      ...keys.map((contractKey) =>
        post('/api/contract', { data: { action: 'archive', contract: { contractKey } } }, b!.clientToken),
      ),
      // b's platform token names a's client
      ...keys
        .slice(0, 20)
        .map(() => post('/api/contract', { data: { action: 'list', clientKey: a!.clientKey } }, b!.platformToken)),
    ]);
    expect(probes.slice(0, keys.length).map((p) => p.status)).toEqual(keys.map(() => 404));
    expect(new Set(probes.slice(keys.length).map((p) => p.status))).toEqual(new Set([404]));
    // Nothing was archived by the other tenant's attempts.
    const list = await post('/api/contract', { data: { action: 'list' } }, a!.clientToken);
    expect(list.body.contracts.every((c: { status: string }) => c.status === 'Created')).toBe(true);
  });

  it('issues unique tokens and clients under parallel load within one platform', async () => {
    const t = await tenant(200);
    const clients = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post('/api/client', { data: { action: 'create', client: { fullname: `P${i}` } } }, t.platformToken),
      ),
    );
    const clientKeys = clients.map((c) => c.body.client.clientKey as string);
    expect(new Set(clientKeys).size).toBe(100);
    const tokens = await Promise.all(
      clientKeys.map((clientKey) => post('/api/token', { action: 'create', clientKey }, t.platformToken)),
    );
    expect(tokens.every((r) => r.status === 201)).toBe(true);
    expect(new Set(tokens.map((r) => r.body.access_token)).size).toBe(100);
  });
});
