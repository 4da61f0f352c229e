/**
 * Connection faults and dribble without a socket: `Sandbox.fetch` (the in-process door) and esign-sandbox/msw. There
 * is no connection to break, so the caller meets what Node's fetch meets on a port: a rejected request (a TypeError
 * `fetch failed` whose cause carries Node's code), or for `malformed-chunk` an answer whose body fails half-way.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import { type RunningSandbox, type Sandbox, createSandbox, startSandbox } from '../../src/index.js';
import { handlers } from '../../src/msw.js';

const SERVICE = 'https://api.sendforsign.com';
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ clock: 'frozen', start: '2026-03-01T09:00:00.000Z' });
});
afterAll(() => sandbox?.close());
afterEach(() => {
  sandbox.control.faults.clear();
});

const listRequest = () =>
  new Request(`${SERVICE}/api/contract`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': sandbox.defaultAccount.apiKey! },
    body: JSON.stringify({ data: { action: 'list', clientKey: sandbox.defaultAccount.clientKey } }),
  });

/** What the caller met: `answered <status>: <body>`, or the rejection as `<message>: <cause.code>`. */
async function outcome(send: () => Promise<Response>): Promise<string> {
  try {
    const res = await send();
    return `answered ${res.status}: ${await res.text()}`;
  } catch (error) {
    const { message, cause } = error as Error & { cause?: { code?: string } };
    return `${message}: ${cause?.code}`;
  }
}

const KINDS = [
  ['reset', 'fetch failed: ECONNRESET'],
  ['empty', 'fetch failed: UND_ERR_SOCKET'],
  ['garbage', 'fetch failed: HPE_INVALID_CONSTANT'],
  ['malformed-chunk', 'terminated: HPE_INVALID_CHUNK_SIZE'],
] as const;

describe('connection faults through Sandbox.fetch', () => {
  it.each(KINDS)('%s: rejects as Node fetch does on a port, then the next request answers', async (kind, met) => {
    const [id] = sandbox.control.faults.add({ match: { path: '/api/contract' }, connection: kind, times: 1 });
    expect(await outcome(() => sandbox.fetch(listRequest()))).toBe(met);
    expect(await outcome(() => sandbox.fetch(listRequest()))).toMatch(/^answered 200: \{"contracts":/);
    expect(sandbox.control.faults.list().find((f) => f.id === id)).toMatchObject({ hits: 1, exhausted: true });
  });

  it('names the fault in the cause, so a test that meets it by surprise knows why', async () => {
    sandbox.control.faults.add({ id: 'cut', match: { path: '/api/contract' }, connection: 'reset', times: 1 });
    const error = await sandbox.fetch(listRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error & { cause: Error }).cause.message).toBe('read ECONNRESET (esign-sandbox API fault "cut")');
  });

  it('malformed-chunk: the status and the first half of the body arrive before the body fails', async () => {
    const whole = await (await sandbox.fetch(listRequest())).text();
    sandbox.control.faults.add({ match: { path: '/api/contract' }, connection: 'malformed-chunk', times: 1 });
    const res = await sandbox.fetch(listRequest());
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(whole.slice(0, Math.ceil(whole.length / 2)));
    await expect(reader.read()).rejects.toThrow('terminated');
  });

  it('dribble: the same answer, its body in several pieces', async () => {
    const whole = await (await sandbox.fetch(listRequest())).text();
    sandbox.control.faults.add({ match: { path: '/api/contract' }, dribble: '200ms', times: 1 });
    const res = await sandbox.fetch(listRequest());
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(whole)));
    const pieces: Uint8Array[] = [];
    for await (const piece of res.body!) pieces.push(piece);
    expect(pieces.length).toBe(10);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(whole);
  });
});

describe('connection faults through esign-sandbox/msw', () => {
  // As docs/library.md sets it up: a sandbox that also listens on a port (so @hono/node-server has replaced the global
  // Response in this process), its handlers in MSW.
  let running: RunningSandbox;
  let server: ReturnType<typeof setupServer>;
  beforeAll(async () => {
    running = await startSandbox({ clock: 'frozen' });
    server = setupServer(...handlers(running));
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(async () => {
    server?.close();
    await running?.close();
  });

  const list = () =>
    fetch(`${SERVICE}/api/contract`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-key': running.apiKey! },
      body: JSON.stringify({ data: { action: 'list', clientKey: running.clientKey } }),
    });

  it.each(KINDS.filter(([kind]) => kind !== 'malformed-chunk'))(
    '%s: fetch rejects with a TypeError (MSW’s network error), then the next request answers',
    async (kind) => {
      await running.faults.set({ match: { path: '/api/contract' }, connection: kind, times: 1 });
      const error = await list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(await outcome(list)).toMatch(/^answered 200: \{"contracts":/);
    },
  );

  it('malformed-chunk: the answer comes, reading its body fails', async () => {
    await running.faults.set({ match: { path: '/api/contract' }, connection: 'malformed-chunk', times: 1 });
    const res = await list();
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(TypeError);
    expect(await outcome(list)).toMatch(/^answered 200: \{"contracts":/);
  });

  it("node:https's request emits MSW's TypeError: Network error (what axios and got meet)", async () => {
    await running.faults.set({ match: { path: '/api/contract' }, connection: 'reset', times: 1 });
    const error = await new Promise<Error>((resolve, reject) => {
      // Looked up on the module at call time: MSW patches it once listening.
      const req = https.request(`${SERVICE}/api/contract`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-key': running.apiKey! },
      });
      req.on('response', () => reject(new Error('answered')));
      req.on('error', resolve);
      req.end(JSON.stringify({ data: { action: 'list', clientKey: running.clientKey } }));
    });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('Network error');
  });
});
