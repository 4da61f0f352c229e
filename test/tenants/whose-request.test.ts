/**
 * Whose request it is (docs/library.md, "Whose request it is"): worked out once, from the whole request, and read
 * alike by the journal, the API faults, the request events scenarios hear and the operation itself. A request no route
 * read is filed by its whole body, not the journal's cut copy; a share-link operation sent with another tenant's
 * credentials belongs to the link's tenant, where it acts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { BusEvent } from '../../src/core/events.js';
import { type Auth, DEMO, sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();
let heard: BusEvent[];
beforeEach(() => {
  heard = [];
  t.sandbox.services.bus.onAny((e) => heard.push(e));
});

/** A second tenant, whose credentials go where they do not belong. */
async function otherTenant(): Promise<{ apiKey: string; secret: string; platformId: string }> {
  const made = await t.control('/platforms', { name: 'other' });
  expect(made.status).toBe(201);
  return made.body;
}

/** The demo tenant's platform id. */
function demoIdFromStore(): string {
  return t.sandbox.services.store.platforms.where('apiKey', DEMO.apiKey)[0]!.platformId;
}

/** A scenario that listens to requests, so the sandbox tells the bus about each (`api.requested`). */
async function listenToRequests(): Promise<void> {
  const yaml = 'name: listen\nexpect:\n  - { request: { path: /api/nowhere }, by: 1h }\n';
  const loaded = await t.request('/__sandbox/scenarios', {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: yaml,
  });
  expect(loaded.status, JSON.stringify(loaded.body)).toBe(201);
}

/** The paths of the requests the journal filed under a tenant. */
async function filedUnder(apiKey: string): Promise<string[]> {
  const listed = await t.control(`/platforms/${apiKey}/requests`);
  return (listed.body.requests as { path: string }[]).map((r) => r.path);
}

function requestEvents(path: string): BusEvent[] {
  return heard.filter((e) => e.type === 'api.requested' && e.path === path);
}

describe('a request no route read', () => {
  it('is filed under the tenant its whole body names by the journal and the request events alike, past the journal’s body limit', async () => {
    await listenToRequests();
    const platformId = demoIdFromStore();
    // Longer than the journal keeps of a body (64 KiB of text): its kept copy names no tenant.
    const body = JSON.stringify({ data: { action: 'create', apiKey: DEMO.apiKey }, pad: 'x'.repeat(70_000) });
    const answer = await t.request('/api/nowhere', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(404);
    expect(requestEvents('/api/nowhere')).toEqual([expect.objectContaining({ platformId, status: 404 })]);
    expect(await filedUnder(DEMO.apiKey)).toContain('/api/nowhere');
    // The operation its body names, as the request events say it.
    const [entry] = (await t.control('/requests?path=/api/nowhere')).body.requests;
    expect(entry.action).toBe('create');
    expect(requestEvents('/api/nowhere')[0]).toMatchObject({ action: 'create' });
  });
});

describe('a platform token create sent with another tenant’s credentials', () => {
  it('is the tenant’s whose API key it names, where the token is made', async () => {
    const { apiKey, secret } = await otherTenant();
    const created = await t.post('/api/token', { data: { action: 'create', apiKey, secret } }, { apiKey: DEMO.apiKey });
    expect(created.status).toBe(201);
    expect(await filedUnder(apiKey)).toContain('/api/token');
    expect(await filedUnder(DEMO.apiKey)).not.toContain('/api/token');
  });
});

describe('a share-link operation sent with another tenant’s credentials', () => {
  let link: string;
  let auth: Auth;
  beforeEach(async () => {
    auth = await t.demoAuth();
    const contractKey = (
      await t.post('/api/contract', { data: { action: 'create', contract: { name: 'Deal', value: '<p>x</p>' } } }, auth)
    ).body.contract.contractKey;
    const signer = { fullname: 'Ann Lee', email: 'ann@x.test', action: 'sign', position: 1 };
    await t.post('/api/recipient', { data: { action: 'create', contractKey, recipients: [signer] } }, auth);
    link = (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body.recipients[0]
      .recipientKey;
  });

  const open = (apiKey: string) =>
    t.request(`/api/recipient_contract?shareLink=${link}`, { method: 'GET', headers: { 'x-service-key': apiKey } });

  it('is the link’s tenant’s: the journal and the request events file it there, where it acts', async () => {
    await listenToRequests();
    const other = await otherTenant();
    const answer = await open(other.apiKey);
    expect(answer.status).toBe(200);
    expect(requestEvents('/api/recipient_contract')).toEqual([
      expect.objectContaining({ platformId: demoIdFromStore() }),
    ]);
    expect(await filedUnder(DEMO.apiKey)).toContain('/api/recipient_contract');
    expect(await filedUnder(other.apiKey)).not.toContain('/api/recipient_contract');
  });

  it('on the recipient page too: the page is filed under the link’s tenant, where it acts', async () => {
    const other = await otherTenant();
    await t.request(`/sharing/${link}`, { headers: { 'x-service-key': other.apiKey } });
    expect(await filedUnder(DEMO.apiKey)).toContain(`/sharing/${link}`);
    expect(await filedUnder(other.apiKey)).not.toContain(`/sharing/${link}`);
  });

  it('meets the faults set for the link’s tenant, not those of the tenant whose credentials it carries', async () => {
    const other = await otherTenant();
    const fault = { match: { path: '/api/recipient_contract' }, status: 503 };
    expect((await t.control(`/platforms/${other.apiKey}/faults`, { ...fault, status: 500 })).status).toBe(201);
    expect((await open(other.apiKey)).status).toBe(200);
    expect((await t.control(`/platforms/${DEMO.apiKey}/faults`, fault)).status).toBe(201);
    expect((await open(other.apiKey)).status).toBe(503);
  });
});
