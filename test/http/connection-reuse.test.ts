/**
 * A refused request with a large body leaves its keep-alive connection usable: the body nobody
 * read is read before the answer leaves, so the client's next request on the same socket is answered. Raw sockets,
 * since an HTTP client would retry or reconnect and hide the dropped connection.
 */
import { describe, expect, it } from 'vitest';
import { DRAIN_LIMIT_BYTES } from '../../src/http/body.js';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { closeAfterEach } from '../support/helpers.js';
import { RawConnection, rawRequest } from '../support/raw-socket.js';

// Closed after each test, newest first: the sockets, then the sandboxes they were opened on.
const opened = closeAfterEach();

const start = async (options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> =>
  opened(await startSandbox({ clock: 'frozen', ...options }));

const open = async (s: RunningSandbox): Promise<RawConnection> => opened(await RawConnection.open(s.port));

/** 300 KB of JSON: past the journal's 64 KB body cap and far past what one socket read delivers. */
const BIG = JSON.stringify({ data: { action: 'list', pad: 'x'.repeat(300_000) } });

const REFUSALS: { kind: string; status: number; request: (body: string) => string }[] = [
  { kind: 'a GET-only path asked with POST', status: 405, request: (b) => rawRequest('POST', '/api/event_status', b) },
  { kind: 'an unknown path', status: 404, request: (b) => rawRequest('POST', '/api/nope', b) },
  {
    kind: 'a cross-site post to the control API',
    status: 403,
    request: (b) =>
      rawRequest('POST', '/__sandbox/reset', b, [
        ['Host', 'localhost'],
        ['Sec-Fetch-Site', 'cross-site'],
      ]),
  },
  { kind: 'a path the sandbox does not emulate', status: 501, request: (b) => rawRequest('POST', '/api/chat', b) },
  {
    kind: 'a host not on the allow-list',
    status: 403,
    request: (b) => rawRequest('POST', '/api/contract', b, [['Host', 'evil.test']]),
  },
  {
    kind: 'a body that is not JSON by its type',
    status: 415,
    request: (b) =>
      rawRequest('POST', '/api/contract', b).replace('Content-Type: application/json', 'Content-Type: text/plain'),
  },
  { kind: 'JSON cut short', status: 400, request: (b) => rawRequest('POST', '/api/contract', b.slice(0, -2)) },
  { kind: 'no credentials, the body chunked', status: 401, request: (b) => chunked('/api/contract', b) },
];

/** A POST with a chunked body (16 KiB chunks): no Content-Length tells the server where the body ends. */
function chunked(path: string, body: string): string {
  const chunks: string[] = [];
  for (let i = 0; i < body.length; i += 16_384) {
    const chunk = body.slice(i, i + 16_384);
    chunks.push(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
  }
  const head = [
    `POST ${path} HTTP/1.1`,
    'Host: localhost',
    'Content-Type: application/json',
    'Transfer-Encoding: chunked',
  ];
  return `${head.join('\r\n')}\r\n\r\n${chunks.join('')}0\r\n\r\n`;
}

function listContracts(s: RunningSandbox): string {
  return rawRequest('POST', '/api/contract', JSON.stringify({ data: { action: 'list', clientKey: s.clientKey } }), [
    ['Host', 'localhost'],
    ['X-Service-Key', s.apiKey!],
  ]);
}

describe('a refused request with a large body keeps its connection', () => {
  for (const journal of [true, false]) {
    describe(journal ? 'with the journal on' : 'with the journal off', () => {
      it.each(REFUSALS)(
        '$kind ($status), then POST /api/contract on the same connection',
        async ({ status, request }) => {
          const s = await start({ journalLimit: journal ? 1000 : 0 });
          const socket = await open(s);
          socket.write(request(BIG));
          const refused = await socket.answer();
          expect(refused?.status).toBe(status);
          expect(refused?.headers['content-type']).toMatch(/^application\/json/);
          expect(JSON.parse(refused!.body)).toMatchObject({ code: status, message: expect.any(String) });
          expect(refused?.headers.connection).not.toBe('close');
          socket.write(listContracts(s));
          const next = await socket.answer();
          expect(next?.status).toBe(200);
          expect(JSON.parse(next!.body)).toMatchObject({ contracts: [] });
        },
      );

      it.each(REFUSALS)(
        '$kind ($status), with the next request sent right behind it (pipelined)',
        async ({ status, request }) => {
          const s = await start({ journalLimit: journal ? 1000 : 0 });
          const socket = await open(s);
          socket.write(request(BIG) + listContracts(s));
          expect((await socket.answer())?.status).toBe(status);
          expect((await socket.answer())?.status).toBe(200);
        },
      );
    });
  }

  it('a refusal to a request that said Expect: 100-continue: 100, then the refusal, then the next answer', async () => {
    const s = await start();
    const socket = await open(s);
    const head = rawRequest('POST', '/api/event_status', BIG).replace('\r\n\r\n', '\r\nExpect: 100-continue\r\n\r\n');
    socket.write(head + listContracts(s));
    expect((await socket.answer())?.status).toBe(100);
    expect((await socket.answer())?.status).toBe(405);
    expect((await socket.answer())?.status).toBe(200);
  });

  it('a refused HEAD answers no body, so the next answer on the connection is read whole', async () => {
    const s = await start();
    const socket = await open(s);
    // No body follows a HEAD answer (RFC 9110 §9.3.2): one here would be read as the start of the next answer.
    socket.write(rawRequest('HEAD', '/api/contract', '', [['Host', 'localhost']]));
    const refused = await socket.answer();
    expect(refused?.status).toBe(405);
    expect(refused?.body).toBe('');
    socket.write(listContracts(s));
    const next = await socket.answer();
    expect(next?.status).toBe(200);
    expect(JSON.parse(next!.body)).toMatchObject({ contracts: [] });
  });

  it('the journal shows a refused body it read, cut to its cap', async () => {
    const s = await start();
    const socket = await open(s);
    socket.write(rawRequest('POST', '/api/event_status', BIG));
    expect((await socket.answer())?.status).toBe(405);
    const small = JSON.stringify({ data: { action: 'x' } });
    socket.write(rawRequest('POST', '/api/nope', small));
    expect((await socket.answer())?.status).toBe(404);
    const { requests: entries } = (await (await fetch(`${s.url}/__sandbox/requests?path=/api/*`)).json()) as {
      requests: { path: string; request: { body?: unknown } }[];
    };
    expect(entries.find((e) => e.path === '/api/event_status')?.request.body).toEqual({
      truncated: true,
      bytes: Buffer.byteLength(BIG),
    });
    expect(entries.find((e) => e.path === '/api/nope')?.request.body).toEqual({ data: { action: 'x' } });
  });

  it('a refused body over --max-body is read and dropped: the connection stays, the next request is answered', async () => {
    const s = await start({ maxBody: '100kb' });
    const socket = await open(s);
    for (const request of [rawRequest('POST', '/api/event_status', BIG), rawRequest('POST', '/api/contract', BIG)]) {
      socket.write(request);
      const refused = await socket.answer();
      expect([405, 413]).toContain(refused?.status);
      expect(refused?.headers.connection).not.toBe('close');
    }
    socket.write(listContracts(s));
    expect((await socket.answer())?.status).toBe(200);
  });

  it(`a body declared past the ${DRAIN_LIMIT_BYTES / 1024 / 1024} MiB the sandbox drains: answered at once, Connection: close, then closed`, async () => {
    const s = await start();
    const socket = await open(s);
    socket.write(
      rawRequest('POST', '/api/contract', '{"data": {').replace(
        /Content-Length: \d+/,
        `Content-Length: ${DRAIN_LIMIT_BYTES + 1}`,
      ),
    );
    const refused = await socket.answer();
    expect(refused?.status).toBe(413);
    expect(refused?.headers.connection).toBe('close');
    await socket.closes();
  });
});
