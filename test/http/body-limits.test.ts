/**
 * Body limits and broken transfers over a real port (docs/errors.md: 413 over the limit, default 10 MB,
 * `--max-body`): where HTTP framing matters, app.request() cannot stand in for a socket.
 */
import { request as httpRequest } from 'node:http';
import { type Socket, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/config/cli-args.js';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { closeAfterEach } from '../support/helpers.js';

const opened = closeAfterEach();

/** A sandbox on a real port (frozen clock unless told), closed after the test. */
const start = async (options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> =>
  opened(await startSandbox({ clock: 'frozen', ...options }));

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A POST through node:http, which reads an answer that arrives before the body has been sent in full. */
function post(
  url: string,
  path: string,
  body: Buffer | string,
  headers: Record<string, string | number> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    // The server may answer and close while the rest of a large body is still on its way.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    req.end(body);
  });
}

/** Raw bytes over a socket, for framing no HTTP client will produce. Resolves with everything the server sent. */
function rawExchange(port: number, bytes: string, { end = true } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A server that answers and closes while bytes are still arriving may reset the connection; what it sent first counts.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(bytes);
    if (end) socket.end();
  });
}

async function expectHealthy(s: RunningSandbox): Promise<void> {
  const res = await fetch(`${s.url}/__sandbox/health`);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { status: string }).status).toBe('ok');
}

function jsonOf(answer: RawAnswer): { code: number; message: string } {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  return JSON.parse(answer.text) as { code: number; message: string };
}

describe('the body limit', () => {
  it('answers 413 with a JSON body to a body over the default 10 MB', async () => {
    const s = await start();
    const body = Buffer.alloc(10 * 1024 * 1024 + 1, 'x');
    const res = await post(s.url, '/api/contract', body);
    expect(res.status).toBe(413);
    expect(jsonOf(res)).toEqual({ code: 413, message: 'Request body is larger than the limit of 10485760 bytes' });
    await expectHealthy(s);
  });

  it('reads a body just under 10 MB (and refuses it for what it says, not for its size)', async () => {
    const s = await start();
    const body = JSON.stringify({ data: { action: 'list', pad: 'x'.repeat(10 * 1024 * 1024 - 100) } });
    const res = await post(s.url, '/api/contract', body);
    expect(res.status).toBe(401);
    expect(jsonOf(res).message).toContain('Missing credentials');
  });

  it('honours --max-body 1kb, with and without a content-length', async () => {
    const { options } = parseCli(['--max-body', '1kb'], {});
    const s = await start(options);
    const body = JSON.stringify({ data: { action: 'list', pad: 'x'.repeat(2000) } });
    const declared = await post(s.url, '/api/contract', body);
    expect(declared.status).toBe(413);
    expect(jsonOf(declared)).toEqual({ code: 413, message: 'Request body is larger than the limit of 1024 bytes' });
    // Chunked: no length up front, so the limit is enforced while reading.
    const chunked = await post(s.url, '/api/contract', body, { 'transfer-encoding': 'chunked' });
    expect(chunked.status).toBe(413);
    expect(jsonOf(chunked).code).toBe(413);
    // The control API has the same limit.
    const control = await post(s.url, '/__sandbox/clock/advance', JSON.stringify({ by: 'x'.repeat(2000) }));
    expect(control.status).toBe(413);
    // Under the limit, all is well.
    const small = await post(s.url, '/__sandbox/clock/advance', JSON.stringify({ by: '1s' }));
    expect(small.status).toBe(200);
  });
});

describe('broken transfers', () => {
  it('answers a content-length shorter than the body with a JSON 400', async () => {
    const s = await start();
    const body = '{"data": {"action": "list"}}';
    // Node reads 10 bytes as the body and the rest as a second, malformed request; either way the caller gets JSON.
    const answer = await rawExchange(
      s.port,
      `POST /api/contract HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: number; message: string };
    expect(json.code).toBe(400);
    expect(json.message).toMatch(/not valid JSON|Malformed HTTP request/);
    await expectHealthy(s);
  });

  it('answers garbage on the wire and oversized headers with JSON', async () => {
    const s = await start();
    const garbage = await rawExchange(s.port, 'HELLO / HTTP/9\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 400,
      message: expect.stringContaining('Malformed HTTP request'),
    });
    // Both framings at once is how requests are smuggled; Node refuses it, and the refusal is JSON too.
    const smuggled = await rawExchange(
      s.port,
      'POST /api/contract HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(smuggled).toMatch(/^HTTP\/1\.1 400 /);
    expect(smuggled).toContain('"code":400');
    const huge = await rawExchange(
      s.port,
      `GET /__sandbox/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(huge).toContain('"code":431');
    await expectHealthy(s);
  });

  it('answers a content-length over the limit at once, without waiting for the body', async () => {
    const s = await start({ maxBody: '1kb' });
    const answer = await rawExchange(
      s.port,
      'POST /api/contract HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\nConnection: close\r\n\r\n{"da',
      { end: false },
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":413');
    await expectHealthy(s);
  });

  it('stays healthy while a body trickles in, and after the client gives up on it', async () => {
    const s = await start();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const socket: Socket = connect(s.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        'POST /api/contract HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"data": {"act',
      );
      socket.on('error', () => undefined);
      // Other callers are served while the slow body is pending.
      await expectHealthy(s);
      socket.write('ion": "li');
      await expectHealthy(s);
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.destroy();
      await closed;
      await expectHealthy(s);
      const res = await fetch(`${s.url}/api/contract`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"data": {"action": "list"}}',
      });
      expect(res.status).toBe(401);
      // An aborted upload is the client's doing, not an internal error.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes('internal error'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
