import { beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, sandboxEachTest } from '../support/helpers.js';
import { OUTSIDERS, outsiders } from '../support/outsiders.js';
import { createContract } from '../support/contract-walk.js';

const t = sandboxEachTest();
let auth: Auth;
beforeEach(async () => {
  auth = await t.demoAuth();
});

const get = (path: string, as: Auth | null = auth) => {
  const headers: Record<string, string> = {};
  if (as && 'bearer' in as) headers.authorization = `Bearer ${as.bearer}`;
  if (as && 'apiKey' in as) headers[as.header ?? 'x-service-key'] = as.apiKey;
  return t.request(path, { method: 'GET', headers });
};

describe('GET /api/contract_event', () => {
  it('lists one entry per lifecycle step, in order, with status ids, the person and ipInfo', async () => {
    const created = await createContract(t, auth, { name: 'Trail', value: 'x' }, [
      { fullname: 'Ann', email: 'ann@x.test', action: 'sign', position: 1 },
      { fullname: 'Bo', email: 'bo@x.test', action: 'approve', position: 2 },
    ]);
    const contractKey = created.body.contract.contractKey;
    const [ann, bo] = (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body.recipients;
    await t.control(`/recipients/${ann.recipientKey}/sign`, {});
    await t.control(`/recipients/${bo.recipientKey}/approve`, {});
    await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey } } }, auth);
    const res = await get(`/api/contract_event?contractKey=${contractKey}`);
    expect(res.status).toBe(200);
    expect(res.body.map((e: { status: number; name: string }) => [e.status, e.name])).toEqual([
      [1, expect.any(String)],
      [2, expect.any(String)],
      [3, 'Ann'],
      [5, 'Ann'],
      [6, expect.any(String)],
      [3, 'Bo'],
      [4, 'Bo'],
      [7, expect.any(String)],
    ]);
    expect(res.body[2]).toEqual({
      id: 3,
      createTime: '2026-03-01T09:00:00.000Z',
      status: 3,
      email: 'ann@x.test',
      name: 'Ann',
      ipInfo: JSON.stringify({
        ip: '127.0.0.1',
        city: 'Not collected',
        country_name: 'Not collected',
        timezone: 'UTC',
        utc_offset: '+0000',
      }),
      priority: 1,
      shareLink: ann.recipientKey,
      controlLink: null,
      userId: null,
    });
    expect(res.body[0]).toMatchObject({ id: 1, userId: DEMO.userKey, shareLink: null });
  });

  it('works with the API key header and clientKey in the query', async () => {
    const contractKey = (
      await t.post('/api/contract', { data: { action: 'create', contract: { name: 'C', value: 'x' } } }, auth)
    ).body.contract.contractKey;
    const res = await get(`/api/contract_event?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`, {
      apiKey: DEMO.apiKey,
      header: 'x-sendforsign-key',
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
  });

  it("answers 404 for another client's or platform's contract, 400 without a contractKey, 401 without credentials, 405 for PUT", async () => {
    const contractKey = (
      await t.post('/api/contract', { data: { action: 'create', contract: { name: 'C', value: 'x' } } }, auth)
    ).body.contract.contractKey;
    const others = await outsiders(t);
    expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
    for (const o of others) {
      const res = await get(
        `/api/contract_event?contractKey=${contractKey}${o.clientKey ? `&clientKey=${o.clientKey}` : ''}`,
        o.auth,
      );
      expect(res.status, o.name).toBe(404);
    }
    const missing = await get('/api/contract_event');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe('contractKey');
    expect((await get(`/api/contract_event?contractKey=${contractKey}`, null)).status).toBe(401);
    const put = await t.request('/api/contract_event', { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });
});

describe('GET /api/event_status', () => {
  it('answers the status dictionary, ids 1–6 as the real service and 7 Archived', async () => {
    const res = await get('/api/event_status');
    expect(res.status).toBe(200);
    expect(res.body.map((s: { id: number; name: string }) => [s.id, s.name])).toEqual([
      [1, 'Created'],
      [2, 'Sent'],
      [3, 'Seen'],
      [4, 'Approved'],
      [5, 'Signed'],
      [6, 'Fully signed'],
      [7, 'Archived'],
    ]);
    expect(res.body[0].color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('needs credentials', async () => {
    expect((await get('/api/event_status', null)).status).toBe(401);
  });
});
