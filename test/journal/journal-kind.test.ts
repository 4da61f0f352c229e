/**
 * Each journal entry says which door its request came through (docs/library.md, "The request journal"): `api`,
 * `control` or `page`; `kind` keeps one door, on the control API, the library, the dashboard and in the OpenAPI
 * document. A tenant's journal lists its scoped control calls beside its /api requests, told apart.
 */
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import type { JournalEntry } from '../../src/journal/journal.js';
import { closeAfterEach } from '../support/helpers.js';

const opened = closeAfterEach();

/** A sandbox and a tenant that called /api, its scoped control API, and whose signer opened the recipient page. */
async function traffic(): Promise<{ sandbox: RunningSandbox; apiKey: string }> {
  const sandbox = opened(await startSandbox({ clock: 'frozen', start: '2026-03-01T09:00:00Z' }));
  const { apiKey } = await sandbox.createPlatform({ name: 'acme' });
  const call = (path: string, init: RequestInit = {}) => fetch(`${sandbox.url}${path}`, init);
  const api = (body: unknown) =>
    call('/api/contract', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-key': apiKey },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>);
  const client = await call('/api/client', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': apiKey },
    body: JSON.stringify({ data: { action: 'create', client: { fullname: 'Acme' } } }),
  }).then((r) => r.json() as Promise<any>);
  const created = await api({
    data: {
      action: 'create',
      clientKey: client.client.clientKey,
      contract: { name: 'Lease', value: '<p>Terms</p>' },
      recipients: [{ email: 'ann@example.com', action: 'sign' }],
    },
  });
  const [email] = await sandbox.tenant(apiKey).outbox.list();
  expect((await call(new URL(email!.link!).pathname)).status).toBe(200);
  expect((await call(`/__sandbox/platforms/${apiKey}/contracts/${created.contract.contractKey}`)).status).toBe(200);
  expect((await call('/__sandbox/clock')).status).toBe(200);
  return { sandbox, apiKey };
}

const doors = (entries: JournalEntry[]) => entries.map((e) => `${e.kind} ${e.method} ${e.path.split('/')[1]}`);

describe('the journal tells /api from the control API and the pages', () => {
  it('marks each entry with its door, and keeps one door when asked, on the control API and the library', async () => {
    const { sandbox, apiKey } = await traffic();
    const all = await sandbox.requests();
    expect(new Set(all.map((e) => e.kind))).toEqual(new Set(['api', 'control', 'page']));
    for (const e of all)
      expect(e.kind, e.path).toBe(
        e.path.startsWith('/api/') ? 'api' : e.path.startsWith('/__sandbox') ? 'control' : 'page',
      );
    for (const kind of ['api', 'control', 'page'] as const) {
      const kept = await sandbox.requests({ kind });
      expect(kept.length, kind).toBeGreaterThan(0);
      expect(kept).toEqual(all.filter((e) => e.kind === kind));
      const overHttp = (await (await fetch(`${sandbox.url}/__sandbox/requests?kind=${kind}`)).json()) as any;
      expect(overHttp.requests).toEqual(kept);
    }
    // The tenant's journal: its /api requests, its scoped control call and its signer's page, each marked.
    const tenant = sandbox.tenant(apiKey);
    expect(doors(await tenant.requests())).toEqual([
      'api POST api',
      'api POST api',
      'page GET sharing',
      'control GET __sandbox',
    ]);
    expect(doors(await tenant.requests({ kind: 'api' }))).toEqual(['api POST api', 'api POST api']);
  });

  it('refuses a door it does not know, naming the ones it knows', async () => {
    const { sandbox } = await traffic();
    const res = await fetch(`${sandbox.url}/__sandbox/requests?kind=webhook`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('api, control, page');
  });

  it('offers the doors on the dashboard, whose Requests tab keeps the one picked', async () => {
    const { sandbox } = await traffic();
    const page = await (await fetch(`${sandbox.url}/__sandbox/ui?tab=requests&kind=api`)).text();
    const rows = [...page.matchAll(/<tr data-kind="(\w+)"/g)].map((m) => m[1]);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows)).toEqual(new Set(['api']));
    expect(page).toMatch(/<option value="control"[^>]*>control API<\/option>/);
  });

  it('is declared in the OpenAPI document: the kind query parameter and the entry field', async () => {
    const { sandbox } = await traffic();
    const doc = (await (await fetch(`${sandbox.url}/openapi.json`)).json()) as any;
    const params = doc.paths['/__sandbox/requests'].get.parameters as Array<{ name: string; schema: any }>;
    expect(params.find((p) => p.name === 'kind')?.schema.enum).toEqual(['api', 'control', 'page']);
    expect(JSON.stringify(doc.paths['/__sandbox/requests'].get.responses['200'])).toContain('"kind"');
  });
});
