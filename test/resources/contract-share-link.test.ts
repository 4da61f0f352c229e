import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { OUTSIDERS, outsiders } from '../support/outsiders.js';
import { resolveExtraShareLink } from '../../src/domain/share-links.js';
import { systemContext } from '../../src/domain/context.js';

let t: TestSandbox;
let auth: Auth;
let contractKey: string;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  auth = await t.demoAuth();
  contractKey = (
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'Share', value: 'x' } } }, auth)
  ).body.contract.contractKey;
});
afterEach(() => t.close());

const call = (method: string, body?: object, query = '', as: Auth = auth) => {
  const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json' };
  if (as && 'bearer' in as) headers.authorization = `Bearer ${as.bearer}`;
  if (as && 'apiKey' in as) headers[as.header ?? 'x-service-key'] = as.apiKey;
  return t.request(`/api/contract_share_link${query}`, {
    method,
    headers,
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
};
const list = async () => (await call('GET', undefined, `?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`)).body;

describe('contract share links', () => {
  it('creates a link (view "4"), lists it, changes its view, deletes it', async () => {
    const created = await call('POST', { clientKey: DEMO.clientKey, contractKey });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      shareLink: {
        id: 1,
        shareLink: expect.stringMatching(/^[A-Za-z0-9]+$/),
        controlLink: expect.stringMatching(/^[A-Za-z0-9]+$/),
        createTime: '2026-03-01T09:00:00.000Z',
        changeTime: '2026-03-01T09:00:00.000Z',
        view: '4',
      },
      code: '201',
      message: 'Share link created',
    });
    const link = created.body.shareLink.shareLink;
    expect(await list()).toEqual([created.body.shareLink]);

    const put = await call('PUT', { clientKey: DEMO.clientKey, contractKey, shareLink: link, id: 1, view: '1' });
    expect(put.status).toBe(201);
    expect(put.body.shareLink.view).toBe('1');
    expect((await list())[0].view).toBe('1');

    const del = await call('DELETE', { clientKey: DEMO.clientKey, contractKey, id: 1 });
    expect(del.status).toBe(201);
    expect(del.body.message).toBe('Share link deleted');
    expect(await list()).toEqual([]);
  });

  it('numbers links per contract, and the resolver finds a link with its contract', async () => {
    await call('POST', { contractKey });
    const second = (await call('POST', { contractKey, view: 2 })).body.shareLink;
    expect(second).toMatchObject({ id: 2, view: '2' });
    const found = resolveExtraShareLink(systemContext(t.sandbox.services, 'test'), second.shareLink);
    expect(found?.contract.contractKey).toBe(contractKey);
    expect(found?.link.view).toBe('2');
    expect(resolveExtraShareLink(systemContext(t.sandbox.services, 'test'), 'nope')).toBeUndefined();
  });

  it.each([
    ['an unknown id', { id: 9, view: '1' }, 404],
    ["a shareLink that is not the id's", { id: 1, shareLink: 'other', view: '1' }, 404],
    ['a view outside 1–4', { id: 1, view: '5' }, 400],
    ['no id', { view: '1' }, 400],
  ])('PUT refuses %s', async (_n, fields, status) => {
    await call('POST', { contractKey });
    expect((await call('PUT', { contractKey, ...fields })).status).toBe(status);
  });

  it('refuses an archived contract (409)', async () => {
    await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey } } }, auth);
    expect((await call('POST', { contractKey })).status).toBe(409);
  });

  it('answers 404 to another client or platform for every method', async () => {
    await call('POST', { contractKey });
    const others = await outsiders(t);
    expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
    for (const o of others) {
      const ck = o.clientKey ? { clientKey: o.clientKey } : {};
      expect(
        (
          await call(
            'GET',
            undefined,
            `?contractKey=${contractKey}${o.clientKey ? `&clientKey=${o.clientKey}` : ''}`,
            o.auth,
          )
        ).status,
        o.name,
      ).toBe(404);
      expect((await call('POST', { contractKey, ...ck }, '', o.auth)).status, o.name).toBe(404);
      expect((await call('PUT', { contractKey, id: 1, view: '1', ...ck }, '', o.auth)).status, o.name).toBe(404);
      expect((await call('DELETE', { contractKey, id: 1, ...ck }, '', o.auth)).status, o.name).toBe(404);
    }
    expect(await list()).toHaveLength(1);
  });

  it('answers 405 for PATCH, naming the methods', async () => {
    const res = await call('PATCH', { contractKey });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, PUT, DELETE');
  });
});
