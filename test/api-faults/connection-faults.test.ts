/**
 * API faults that break the connection (`connection: reset | empty | malformed-chunk | garbage`) or trickle the answer
 * (`dribble`), on a real port, as Node's fetch and a raw socket meet them; the next request answers as usual.
 */
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { RawConnection, rawRequest } from '../support/raw-socket.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: '2026-03-01T09:00:00.000Z' });
});
afterAll(() => sandbox?.close());

const LIST = () => JSON.stringify({ data: { action: 'list', clientKey: sandbox.clientKey } });
const list = () =>
  fetch(`${sandbox.url}/api/contract`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey! },
    body: LIST(),
  });
const rawList = () =>
  rawRequest('POST', '/api/contract', LIST(), [
    ['Host', 'localhost'],
    ['x-service-key', sandbox.apiKey!],
  ]);

/** Node's fetch: the error it rejects with (on the answer, or on its body), as `message: cause.code`. */
async function fetchError(): Promise<string> {
  try {
    const res = await list();
    await res.text();
    return `answered ${res.status}`;
  } catch (error) {
    const { message, cause } = error as Error & { cause?: { code?: string } };
    return `${message}: ${cause?.code}`;
  }
}

const CONNECTION_FAULTS: [kind: string, fetch: string, raw: (bytes: Buffer, socket: RawConnection) => void][] = [
  [
    'reset',
    'fetch failed: ECONNRESET',
    (bytes, socket) => {
      expect(bytes.length).toBe(0);
      expect(socket.error).toBe('ECONNRESET');
    },
  ],
  [
    'empty',
    'fetch failed: UND_ERR_SOCKET',
    (bytes, socket) => {
      expect(bytes.length).toBe(0);
      expect(socket.error).toBeUndefined();
    },
  ],
  [
    'garbage',
    'fetch failed: HPE_INVALID_CONSTANT',
    (bytes, socket) => {
      expect(bytes.length).toBe(256);
      expect(bytes.subarray(0, 5).toString('latin1')).not.toBe('HTTP/');
      expect(socket.error).toBeUndefined();
    },
  ],
  [
    'malformed-chunk',
    'terminated: HPE_INVALID_CHUNK_SIZE',
    (bytes, socket) => {
      const text = bytes.toString('utf8');
      expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(text).toContain('\r\ntransfer-encoding: chunked\r\n');
      expect(text).toContain('{"contracts":');
      expect(text.endsWith('\r\nzz\r\n')).toBe(true);
      expect(socket.error).toBeUndefined();
    },
  ],
];

describe('connection faults on a port', () => {
  it.each(CONNECTION_FAULTS)('%s: Node fetch rejects, then the next request answers', async (kind, expected) => {
    const [id] = await sandbox.faults.set({ match: { path: '/api/contract' }, connection: kind as 'reset', times: 1 });
    expect(await fetchError()).toBe(expected);
    expect((await list()).status).toBe(200);
    expect((await sandbox.faults.list()).find((f) => f.id === id)).toMatchObject({
      connection: kind,
      seen: 1,
      hits: 1,
      exhausted: true,
    });
    await sandbox.faults.clear();
  });

  it.each(CONNECTION_FAULTS)('%s: what a raw socket receives, then a new connection answers', async (kind, _, raw) => {
    await sandbox.faults.set({ match: { path: '/api/contract' }, connection: kind as 'reset', times: 1 });
    const socket = await RawConnection.open(sandbox.port);
    socket.write(rawList());
    raw(await socket.bytesUntilClose(), socket);
    const next = await RawConnection.open(sandbox.port);
    try {
      next.write(rawList());
      expect((await next.answer())?.status).toBe(200);
    } finally {
      next.close();
      await sandbox.faults.clear();
    }
  });

  it('records a request left without an answer as status 0, naming the fault; a broken answer by its status', async () => {
    await sandbox.faults.set([
      { id: 'cut', match: { path: '/api/contract' }, connection: 'reset', times: 1 },
      { id: 'half', match: { path: '/api/contract' }, connection: 'malformed-chunk', times: 1 },
    ]);
    await fetchError();
    await fetchError();
    const seen = await sandbox.requests({ path: '/api/contract' });
    expect(seen.slice(-2).map((r) => [r.status, r.fault])).toEqual([
      [0, 'cut'],
      [200, 'half'],
    ]);
    await sandbox.faults.clear();
  });
});

describe('dribble on a port', () => {
  it('sends the right answer in more than one piece to Node fetch', async () => {
    const whole = await (await list()).text();
    const [id] = await sandbox.faults.set({ match: { path: '/api/contract' }, dribble: '1s', times: 1 });
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-fault')).toBe(id);
    const pieces: Uint8Array[] = [];
    for await (const piece of res.body!) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(whole);
    await sandbox.faults.clear();
  });

  it('sends the right answer in more than one piece to a raw socket, which keeps its connection', async () => {
    const socket = await RawConnection.open(sandbox.port);
    try {
      socket.write(rawList());
      const whole = await socket.answer();
      await sandbox.faults.set({ match: { path: '/api/contract' }, dribble: '1s', times: 1 });
      const before = socket.pieces;
      socket.write(rawList());
      const slow = await socket.answer();
      expect(socket.pieces - before).toBeGreaterThan(1);
      expect(slow?.body).toBe(whole?.body);
      expect(slow?.headers['content-length']).toBe(String(Buffer.byteLength(whole!.body)));
      socket.write(rawList());
      expect((await socket.answer())?.body).toBe(whole?.body);
    } finally {
      socket.close();
      await sandbox.faults.clear();
    }
  });
});

describe('connection faults and dribble in a scenario', () => {
  it('breaks a connection from `faults:`, and a timeline step adds a dribble', async () => {
    await sandbox.scenarios.load(
      [
        'name: bad-network',
        'faults:',
        '  - { id: cut, match: { path: /api/contract }, connection: reset, times: 1 }',
        'timeline:',
        '  - { at: 1h, addFaults: [{ id: slow, match: { path: /api/contract }, dribble: 300ms, times: 1 }] }',
      ].join('\n'),
    );
    try {
      expect(await fetchError()).toBe('fetch failed: ECONNRESET');
      expect((await list()).headers.get('x-sandbox-fault')).toBeNull();
      await sandbox.clock.advance('1h');
      const slow = await list();
      expect([slow.status, slow.headers.get('x-sandbox-fault')]).toEqual([200, 'bad-network:slow']);
      expect(await slow.json()).toHaveProperty('contracts');
      expect(
        (await sandbox.faults.list()).map(({ id, connection, dribbleMs, hits }) => ({
          id,
          connection,
          dribbleMs,
          hits,
        })),
      ).toEqual([
        { id: 'bad-network:cut', connection: 'reset', dribbleMs: undefined, hits: 1 },
        { id: 'bad-network:slow', connection: undefined, dribbleMs: 300, hits: 1 },
      ]);
    } finally {
      await sandbox.scenarios.unload('bad-network');
    }
  });
});

describe('connection faults under --tls', () => {
  let tls: RunningSandbox;
  beforeAll(async () => {
    tls = await startSandbox({ tls: true });
  });
  afterAll(() => tls?.close());

  /** node:https's POST of the listing with the sandbox's certificate trusted: what it met. */
  const post = () =>
    new Promise<string>((resolve) => {
      const headers = { 'content-type': 'application/json', 'x-service-key': tls.apiKey! };
      const req = request(
        `${tls.url}/api/contract`,
        { method: 'POST', ca: tls.tls!.cert, agent: false, headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(`answered ${res.statusCode}`));
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => resolve(`${error.code}: ${error.message}`));
      req.end(JSON.stringify({ data: { action: 'list', clientKey: tls.clientKey } }));
    });

  it.each([
    ['reset', 'ECONNRESET: socket hang up'],
    ['empty', 'ECONNRESET: socket hang up'],
    ['garbage', 'HPE_INVALID_CONSTANT: Parse Error: Expected HTTP/, RTSP/ or ICE/'],
    ['malformed-chunk', 'HPE_INVALID_CHUNK_SIZE: Parse Error: Invalid character in chunk size'],
  ] as const)('%s: the request fails inside TLS, then the next one answers', async (kind, met) => {
    await tls.faults.set({ match: { path: '/api/contract' }, connection: kind, times: 1 });
    expect(await post()).toBe(met);
    expect(await post()).toBe('answered 200');
  });
});
