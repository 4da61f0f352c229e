import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/config/cli-args.js';
import type { JournalEntry } from '../../src/journal/journal.js';
import { prettyLine, requestLogger } from '../../src/http/request-log.js';
import { DEMO, FROZEN, testSandbox, sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

const journal = async (query = '') => (await t.control(`/requests${query}`)).body.requests as JournalEntry[];

describe('the request journal', () => {
  it('records method, path, action, status, sandbox time, duration and both bodies', async () => {
    const auth = await t.demoAuth();
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'NDA', value: '<p>x</p>' } } }, auth);
    const [entry] = await journal('?path=/api/contract');
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/api/contract',
      action: 'create',
      status: 201,
      at: '2026-03-01T09:00:00.000Z',
      request: { body: { data: { action: 'create', contract: { name: 'NDA', value: '<p>x</p>' } } } },
      response: { body: { code: '201', message: 'Contract created' } },
    });
    expect(entry!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('redacts secrets, tokens, API keys and credential headers everywhere', async () => {
    const token = await t.platformToken({ apiKey: DEMO.apiKey, secret: DEMO.secret });
    await t.post('/api/user', { data: { action: 'list', clientKey: DEMO.clientKey } }, { apiKey: DEMO.apiKey });
    await t.post(
      '/api/webhook',
      { data: { action: 'create', clientKey: DEMO.clientKey, webhook: { url: 'http://127.0.0.1:9/hook' } } },
      { bearer: token },
    );
    const text = JSON.stringify(await journal());
    expect(text).not.toContain(DEMO.secret);
    expect(text).not.toContain(DEMO.apiKey);
    expect(text).not.toContain(token);
    expect(text).not.toMatch(/whsec_/);
    const entries = await journal();
    expect(entries[0]!.request.body).toEqual({
      data: { action: 'create', apiKey: '[redacted]', secret: '[redacted]' },
    });
    expect(entries[0]!.response.body).toMatchObject({ access_token: '[redacted]', token_type: 'Bearer' });
    expect(entries[1]!.request.headers['x-service-key']).toBe('[redacted]');
    expect(entries[2]!.request.headers.authorization).toBe('[redacted]');
  });

  it.each([
    ['path', '?path=/api/user', ['/api/user']],
    ['path prefix', '?path=/api/*', ['/api/token', '/api/token', '/api/user', '/api/contract']],
    ['action', '?action=list', ['/api/user']],
    ['status', '?status=404', ['/api/contract', '/nowhere']],
    ['status', '?status=201', ['/api/token', '/api/token']],
    ['status class', '?status=4xx', ['/api/contract', '/nowhere']],
    ['method', '?method=get', ['/nowhere', '/__sandbox/health']],
  ])('filters by %s', async (_name, query, paths) => {
    const auth = await t.demoAuth();
    await t.post('/api/user', { data: { action: 'list' } }, auth);
    await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey: 'nope' } } }, auth);
    await t.request('/nowhere');
    await t.control('/health');
    expect((await journal(query)).map((e) => e.path)).toEqual(paths);
  });

  it('answers entries after an id or a sandbox time with since, and the newest N with limit', async () => {
    await t.control('/health');
    const [first] = await journal();
    await t.control('/clock/advance', { by: '1h' });
    await t.control('/health');
    expect((await journal(`?since=${first!.id}`)).map((e) => e.path)).toEqual([
      '/__sandbox/clock/advance',
      '/__sandbox/health',
    ]);
    expect((await journal('?since=2026-03-01T09:30:00Z')).map((e) => e.path)).toEqual(['/__sandbox/health']);
    expect((await journal('?limit=1')).map((e) => e.path)).toEqual(['/__sandbox/health']);
  });

  it('refuses a filter it cannot read', async () => {
    const res = await t.control('/requests?status=bad');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/status/);
  });

  it('does not record reading the journal itself', async () => {
    await journal();
    await journal();
    expect(await journal()).toEqual([]);
  });

  it('keeps at most its capacity, dropping the oldest first', async () => {
    const small = await testSandbox({ ...FROZEN, journalLimit: 3 });
    for (let i = 0; i < 5; i++) await small.request(`/nowhere/${i}`);
    const res = await small.control('/requests');
    expect(res.body.capacity).toBe(3);
    expect(res.body.requests.map((e: JournalEntry) => e.path)).toEqual(['/nowhere/2', '/nowhere/3', '/nowhere/4']);
    await small.close();
  });

  it('reads back every kept entry exactly while its storage wraps round and grows', async () => {
    // Bodies of 10 to 60 thousand characters (some not ASCII) in a journal of 20 that wraps round three times:
    // every kept entry must still read back as sent.
    const small = await testSandbox({ ...FROZEN, journalLimit: 20 });
    const auth = await small.demoAuth();
    const sent: string[] = [];
    for (let i = 0; i < 60; i++) {
      const value = `${i}:${'é€😀x'.repeat(((i * 7919) % 10_000) + 2_000)}`;
      sent.push(value);
      await small.post('/api/contract', { data: { action: 'create', contract: { name: `C${i}`, value } } }, auth);
    }
    const entries = (await small.control('/requests?path=/api/contract&limit=20')).body.requests as JournalEntry[];
    expect(
      entries.map((e) => (e.request.body as { data: { contract: { value: string } } }).data.contract.value),
    ).toEqual(sent.slice(-20));
    expect(
      entries.every((e) => e.response.body !== undefined && e.request.headers['content-type'] === 'application/json'),
    ).toBe(true);
    await small.close();
  });

  it('keeps an oversized body only as its size', async () => {
    const auth = await t.demoAuth();
    const value = 'x'.repeat(100_000);
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'Big', value } } }, auth);
    const [entry] = await journal('?path=/api/contract');
    expect(entry!.status).toBe(201);
    expect(entry!.request.body).toEqual({ truncated: true, bytes: expect.any(Number) });
  });

  it("is emptied by a full reset and loses only one tenant's entries on a tenant reset", async () => {
    const other = (await t.control('/platforms', {})).body;
    await t.post('/api/token', { data: { action: 'create', apiKey: other.apiKey, secret: other.secret } });
    await t.platformToken();
    await t.control('/reset', { apiKey: other.apiKey });
    const left = await journal('?path=/api/token');
    expect(left).toHaveLength(1);
    expect((await journal(`?apiKey=${DEMO.apiKey}`)).map((e) => e.path)).toEqual(['/api/token']);
    await t.control('/reset', {});
    expect((await journal()).map((e) => e.path)).toEqual(['/__sandbox/reset']);
  });

  it("drops one tenant's entries in order wherever its storage has wrapped round (random resets, 3 tenants)", async () => {
    const small = await testSandbox({ ...FROZEN, journalLimit: 7 });
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) keys.push((await small.control('/platforms', {})).body.apiKey);
    // The journal as it must read: the newest 7 requests, less those of a tenant reset since.
    let model: string[] = [];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (let step = 0; step < 120; step++) {
      const key = keys[random(3)]!;
      const reset = random(5) === 0;
      const path = `/__sandbox/platforms/${key}/${reset ? 'reset' : 'clock'}`;
      if (reset) model = model.filter((p) => !p.startsWith(`/__sandbox/platforms/${key}/`));
      const answer = reset
        ? await small.control(`/platforms/${key}/reset`, {})
        : await small.control(`/platforms/${key}/clock`);
      expect(answer.status).toBe(200);
      model = [...model, path].slice(-7);
      const shown = (await small.control('/requests?path=/__sandbox/platforms/*')).body.requests as JournalEntry[];
      expect(shown.map((e) => e.path)).toEqual(model);
    }
    await small.close();
  });

  it('is made ready to list a slice at a time, with turns of the event loop between slices', async () => {
    // 120 bodies of ~60 KB (7 MB): more than one slice of the bodies the journal parses and redacts for its list.
    const auth = await t.demoAuth();
    for (let i = 0; i < 120; i++)
      await t.post(
        '/api/contract',
        { data: { action: 'create', contract: { name: `C${i}`, value: 'x'.repeat(60_000) } } },
        auth,
      );
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    await t.sandbox.control.journal.ready();
    expect(turned).toBe(true);
    const listed = (await journal('?path=/api/contract')).map(
      (e) => (e.request.body as { data: { contract: { name: string } } }).data.contract.name,
    );
    expect(listed).toEqual(Array.from({ length: 120 }, (_, i) => `C${i}`));
  });

  it('can be emptied on purpose', async () => {
    await t.control('/health');
    expect((await t.control('/requests', undefined, 'DELETE')).status).toBe(200);
    expect(await journal()).toEqual([]);
  });
});

describe('the request log', () => {
  const entry: JournalEntry = {
    id: 3,
    at: '2026-03-01T09:00:00.000Z',
    kind: 'api',
    method: 'POST',
    path: '/api/contract',
    action: 'archive',
    status: 404,
    durationMs: 2.345,
    request: { headers: {} },
    response: { body: { code: 404, message: 'Contract not found' } },
  };

  it('prints a readable line per request, with the error message', () => {
    expect(prettyLine(entry, false)).toBe(
      '09:00:00.000  POST   /api/contract archive  404  2.3 ms  Contract not found',
    );
    expect(prettyLine(entry, true)).toContain('\u001b[33m404\u001b[0m');
  });

  it('prints JSON lines with --log-format json', () => {
    const lines: string[] = [];
    requestLogger({ format: 'json', write: (l) => lines.push(l) })!(entry);
    expect(JSON.parse(lines[0]!)).toEqual({
      at: entry.at,
      method: 'POST',
      path: '/api/contract',
      action: 'archive',
      status: 404,
      durationMs: 2.345,
      id: 3,
      message: 'Contract not found',
    });
  });

  it('prints nothing when quiet', () => {
    expect(requestLogger({ format: 'none', write: () => undefined })).toBeUndefined();
  });

  it('writes one line per request answered by a sandbox started with a log format', async () => {
    const lines: string[] = [];
    const logged = await testSandbox({ ...FROZEN, log: 'json' });
    logged.sandbox.journal.onEntry((e) => lines.push(e.path));
    await logged.control('/health');
    expect(lines).toEqual(['/__sandbox/health']);
    await logged.close();
  });

  it.each([
    [['--log-format', 'json'], {}, 'json'],
    [['--quiet'], {}, 'none'],
    [['-q', '--log-format', 'json'], {}, 'none'],
    [[], { ESIGN_SANDBOX_LOG_FORMAT: 'json' }, 'json'],
    [[], { ESIGN_SANDBOX_QUIET: 'true' }, 'none'],
    [[], {}, undefined],
  ])('reads %j %j as log %s', (argv, env, log) => {
    expect(parseCli(argv, env).options.log).toBe(log);
  });

  it('refuses an unknown log format', () => {
    expect(() => parseCli(['--log-format', 'xml'], {})).toThrow(/pretty.*json/);
  });
});

describe('a journal of size 0', () => {
  it('keeps nothing, and the log still sees every request', async () => {
    const off = await testSandbox({ ...FROZEN, journalLimit: 0 });
    const seen: JournalEntry[] = [];
    off.sandbox.journal.onEntry((e) => seen.push(e));
    await off.request('/nowhere');
    await off.control('/health');
    expect((await off.control('/requests')).body.requests).toEqual([]);
    expect(seen.map((e) => [e.path, e.status])).toEqual([
      ['/nowhere', 404],
      ['/__sandbox/health', 200],
    ]);
    expect(seen[0]!.response.body).toMatchObject({ code: 404 });
    await off.close();
  });
});

describe('secrets outside bodies', () => {
  it('redacts secret-named query parameters and the Proxy-Authorization header, keeping the rest', async () => {
    await t.request('/api/contract?access_token=tok123&apiKey=key456&page=2', {
      headers: { 'proxy-authorization': 'Basic c2VjcmV0', 'x-trace': 'keep' },
    });
    const [entry] = await journal('?path=/api/contract');
    expect(entry!.query).toBe('access_token=%5Bredacted%5D&apiKey=%5Bredacted%5D&page=2');
    expect(entry!.request.headers).toMatchObject({ 'proxy-authorization': '[redacted]', 'x-trace': 'keep' });
    expect(JSON.stringify(await journal())).not.toMatch(/tok123|key456|c2VjcmV0/);
  });
});
