/**
 * The Host header's edge cases over a real socket (RFC 9112 section 3.2): two Host headers, none,
 * an empty one or one that is no host name are answered 400 with the JSON error body, before the allow-list is
 * asked; an HTTP/1.0 request may still omit it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { RawConnection, rawRequest } from '../support/raw-socket.js';

let s: RunningSandbox;
beforeAll(async () => {
  s = await startSandbox({ clock: 'frozen' });
});
afterAll(() => s.close());

async function ask(
  bytes: string,
): Promise<{ status: number; body: { code: number; message: string }; close: boolean }> {
  const socket = await RawConnection.open(s.port);
  try {
    socket.write(bytes);
    const answer = await socket.answer();
    expect(answer?.headers['content-type']).toMatch(/^application\/json/);
    return { status: answer!.status, body: JSON.parse(answer!.body), close: answer!.headers.connection === 'close' };
  } finally {
    socket.close();
  }
}

describe('the Host header', () => {
  it.each([
    [
      'two Host headers, localhost then evil.test',
      [
        ['Host', 'localhost'],
        ['Host', 'evil.test'],
      ],
      /2 Host headers/,
    ],
    [
      'two Host headers, evil.test then localhost',
      [
        ['Host', 'evil.test'],
        ['Host', 'localhost'],
      ],
      /2 Host headers/,
    ],
    [
      'two identical Host headers',
      [
        ['Host', 'localhost'],
        ['host', 'localhost'],
      ],
      /2 Host headers/,
    ],
    ['no Host header', [], /no Host header/],
    ['an empty Host header', [['Host', '']], /Host header is empty/],
    ['a Host of blanks', [['Host', '   ']], /Host header is empty/],
    ['a Host that is no host name', [['Host', 'a b']], /"a b" is not a host name/],
  ] as [string, [string, string][], RegExp][])(
    '%s: 400 with a JSON body naming it',
    async (_name, headers, message) => {
      for (const [method, path, body] of [
        ['GET', '/__sandbox/health', ''],
        ['POST', '/api/contract', JSON.stringify({ data: { action: 'list' } })],
      ] as const) {
        const answer = await ask(rawRequest(method, path, body, headers));
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ code: 400, message: expect.stringMatching(message) });
        expect(answer.close).toBe(true);
      }
    },
  );

  it('one Host of its own name is answered; one of another name meets the allow-list (403)', async () => {
    expect((await ask(rawRequest('GET', '/__sandbox/health'))).status).toBe(200);
    expect((await ask(rawRequest('GET', '/__sandbox/health', '', [['Host', `127.0.0.1:${s.port}`]]))).status).toBe(200);
    expect((await ask(rawRequest('GET', '/__sandbox/health', '', [['Host', '[::1]']]))).status).toBe(200);
    const other = await ask(rawRequest('GET', '/__sandbox/health', '', [['Host', 'evil.test']]));
    expect(other.status).toBe(403);
    expect(other.body.message).toMatch(/Host "evil.test" is not one of this sandbox's names/);
  });

  it('the allow-list decides each request, also after the same connection named an allowed host', async () => {
    const socket = await RawConnection.open(s.port);
    try {
      socket.write(rawRequest('GET', '/__sandbox/health'));
      expect((await socket.answer())?.status).toBe(200);
      socket.write(rawRequest('GET', 'http://evil.test/__sandbox/health'));
      expect((await socket.answer())?.status).toBe(403);
      socket.write(rawRequest('GET', '/__sandbox/health', '', [['Host', 'evil.test']]));
      expect((await socket.answer())?.status).toBe(403);
      socket.write(rawRequest('GET', '/__sandbox/health'));
      expect((await socket.answer())?.status).toBe(200);
    } finally {
      socket.close();
    }
  });

  it('an HTTP/1.0 request without Host is answered (HTTP/1.0 has no such rule)', async () => {
    const answer = await ask('GET /__sandbox/health HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'ok' });
  });
});
