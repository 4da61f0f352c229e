/**
 * Hostile requests over one real keep-alive connection: every operation of the
 * OpenAPI document, with bodies and headers fast-check makes hostile, sent one after the other on one socket, as a
 * pooled client would. Each gets a JSON answer naming what is wrong (no 5xx), and the connection stays usable unless
 * the answer says `Connection: close`. Then the wire itself: pipelining, broken chunked framing, a refused chunked
 * body, a trickled request. Bounded runs, loopback only.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { RawConnection, rawRequest } from '../support/raw-socket.js';

let s: RunningSandbox;
let operations: { method: string; path: string }[];
beforeAll(async () => {
  s = await startSandbox({ clock: 'frozen' });
  const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as { paths: Record<string, object> };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
      // A path parameter gets a value that names nothing.
      .map((m) => ({ method: m.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'nothing1') })),
  );
});
afterAll(() => s.close());

const RUNS = Number(process.env.FUZZ_RUNS ?? 3);

/** A body no operation accepts: broken JSON, the wrong shape, a deep nest, a long string, bytes that are not UTF-8. */
const hostileBody = fc.oneof(
  fc.constant('{"data": {"action": '),
  fc.constant('[]'),
  fc.constant(`${'['.repeat(5000)}${']'.repeat(5000)}`),
  fc.string({ maxLength: 200 }).map((x) => JSON.stringify({ data: { action: x, contract: { name: x } } })),
  fc.integer({ min: 1000, max: 200_000 }).map((n) => JSON.stringify({ data: { pad: 'x'.repeat(n) } })),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
);
const hostileHeaders = fc.oneof(
  fc.constant<[string, string][]>([['Content-Type', 'application/json']]),
  fc.constant<[string, string][]>([['Content-Type', 'text/plain']]),
  fc.constant<[string, string][]>([
    ['Content-Type', 'application/json'],
    ['Authorization', `Bearer ${'A'.repeat(4000)}`],
  ]),
  fc.constant<[string, string][]>([
    ['Content-Type', 'application/json; charset=utf-16'],
    ['X-Service-Key', 'nope'],
    ['Origin', 'http://evil.test'],
  ]),
  fc.constant<[string, string][]>([
    ['Content-Type', 'application/x-www-form-urlencoded'],
    ['Sec-Fetch-Site', 'cross-site'],
  ]),
);

function request(method: string, path: string, body: string, headers: [string, string][]): string {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: localhost', ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (body !== '') head.push(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

describe('every operation, hostile, on one keep-alive connection', () => {
  it('answers each with JSON naming what is wrong, and keeps the connection', async () => {
    expect(operations.length).toBeGreaterThan(30);
    let socket = await RawConnection.open(s.port);
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...operations), hostileBody, hostileHeaders, async (op, body, headers) => {
          const sent = op.method === 'GET' ? '' : body;
          socket.write(Buffer.from(request(op.method, op.path, sent, headers), 'latin1'));
          const answer = await socket.answer();
          expect(answer, `${op.method} ${op.path}`).toBeDefined();
          // 501 is the deliberate answer of the paths the sandbox does not emulate (http/not-emulated.ts).
          const status = answer!.status === 501 ? 499 : answer!.status;
          expect(status, `${op.method} ${op.path}: ${answer!.body.slice(0, 200)}`).toBeLessThan(500);
          if (answer!.status >= 400) {
            expect(answer!.headers['content-type']).toMatch(/json/);
            expect(JSON.parse(answer!.body)).toMatchObject({ message: expect.any(String) });
          }
          if (answer!.headers.connection === 'close') {
            socket.close();
            socket = await RawConnection.open(s.port);
          } else {
            // The next request on the same connection is answered.
            socket.write(rawRequest('GET', '/__sandbox/health'));
            expect((await socket.answer())?.status).toBe(200);
          }
        }),
        { numRuns: operations.length * RUNS, seed: 28 },
      );
    } finally {
      socket.close();
    }
  });
});

describe('the wire', () => {
  it('answers pipelined requests in order, refusals with bodies among them', async () => {
    const socket = await RawConnection.open(s.port);
    try {
      const big = JSON.stringify({ pad: 'y'.repeat(100_000) });
      const list = JSON.stringify({ data: { action: 'list', clientKey: s.clientKey } });
      const auth: [string, string][] = [
        ['Host', 'localhost'],
        ['X-Service-Key', s.apiKey!],
      ];
      const batch = [
        rawRequest('POST', '/api/contract', list, auth),
        rawRequest('POST', '/api/event_status', big),
        rawRequest('GET', '/__sandbox/health'),
        rawRequest('POST', '/api/nope', big),
        rawRequest('DELETE', '/api/contract', big),
        rawRequest('POST', '/api/contract', list, auth),
      ];
      socket.write(batch.join(''));
      const statuses: number[] = [];
      for (let i = 0; i < batch.length; i++) statuses.push((await socket.answer())!.status);
      expect(statuses).toEqual([200, 405, 200, 404, 405, 200]);
    } finally {
      socket.close();
    }
  });

  it('a chunked body on a refused path is read, and the connection goes on', async () => {
    const socket = await RawConnection.open(s.port);
    try {
      const chunk = 'z'.repeat(50_000);
      const chunks = Array.from({ length: 4 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
      socket.write(
        `POST /api/event_status HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`,
      );
      expect((await socket.answer())?.status).toBe(405);
      socket.write(rawRequest('GET', '/__sandbox/health'));
      expect((await socket.answer())?.status).toBe(200);
    } finally {
      socket.close();
    }
  });

  it.each([
    ['a chunk size that is not hex', '5\r\nhello\r\nzz\r\nxx\r\n0\r\n\r\n'],
    ['a chunk longer than its size', '2\r\nhello\r\n0\r\n\r\n'],
    ['a negative chunk size', '-1\r\nx\r\n0\r\n\r\n'],
  ])('broken chunked framing (%s): a JSON 400, then the connection closes', async (_name, framing) => {
    const socket = await RawConnection.open(s.port);
    try {
      socket.write(
        `POST /api/contract HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${framing}`,
      );
      const answer = await socket.answer();
      expect(answer?.status).toBe(400);
      expect(JSON.parse(answer!.body)).toMatchObject({ code: 400, message: expect.stringMatching(/Malformed HTTP/) });
      await socket.closes();
    } finally {
      socket.close();
    }
  });

  it('a request whose headers trickle in does not hold up other connections', async () => {
    const slow = await RawConnection.open(s.port);
    try {
      const parts = [
        'POST /api/contract HTTP/1.1\r\nHost: loc',
        'alho',
        'st\r\nContent-Ty',
        'pe: application/json\r\n',
      ];
      for (const part of parts) {
        slow.write(part);
        const res = await fetch(`${s.url}/__sandbox/health`);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      slow.write('Content-Length: 2\r\n\r\n{}');
      const answer = await slow.answer();
      expect(answer?.status).toBe(400);
      expect(JSON.parse(answer!.body)).toMatchObject({ code: 400, message: expect.any(String) });
    } finally {
      slow.close();
    }
  });
});
