/**
 * A tenant's API key is a name, never a path (docs/library.md, "Parallel test files on one sandbox"): every scoped
 * route, sent over a raw socket so no client library normalises the path first, with every encoded form of `.`,
 * `..`, `/` and `%` where the key goes, is refused with a 400 and touches nothing: neither another tenant, nor the
 * sandbox clock, nor the unscoped routes the dot segments would lead to once resolved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/options.js';
import { controlRoutes } from '../../src/control-table/index.js';
import { parseWith } from '../../src/core/validation.js';
import { fixtureFileSchema } from '../../src/fixtures/schema.js';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { RawConnection, rawRequest } from '../support/raw-socket.js';

let s: RunningSandbox;
beforeAll(async () => {
  s = await startSandbox({ clock: 'frozen', start: '2026-03-01T09:00:00Z' });
});
afterAll(() => s.close());

/** What stands where the key goes: each of `.`, `..`, `/`, `%` raw, percent-encoded (either case), twice encoded. */
const KEY_FORMS = [
  '.',
  '..',
  '%2e',
  '%2E',
  '.%2e',
  '%2e.',
  '%2e%2e',
  '%2E%2E',
  '%252e',
  '%252e%252e',
  '%25%32%65%25%32%65',
  '%2f',
  '%2F',
  '%252f',
  '..%2f..',
  '%2e%2e%2f%2e%2e',
  '%2e%2e%5c%2e%2e',
  'a/..',
  'a/../..',
  'a%2f..',
  './.',
  '%',
  '%25',
  '%2525',
  '%%2e',
  'pk%00',
  'pk%20x',
];

/** Every scoped route, its path parameters filled with a harmless name. */
const SCOPED = controlRoutes()
  .filter(({ tenant }) => tenant)
  .map(({ name, method, path }) => ({ name, method, path: path.replace(/\{\w+\}/g, 'x') }));

async function send(method: string, path: string, body = ''): Promise<{ status: number; body: string }> {
  const socket = await RawConnection.open(s.port);
  try {
    socket.write(rawRequest(method, path, body));
    const answer = await socket.answer();
    return { status: answer!.status, body: answer!.body };
  } finally {
    socket.close();
  }
}

describe('a tenant key holding a dot, a slash or a percent sign', () => {
  it('covers every scoped route of the control table', () => {
    expect(SCOPED.length).toBeGreaterThan(20);
    expect(SCOPED.map((r) => r.name)).toEqual(expect.arrayContaining(['reset', 'clock.advance', 'clock.set']));
  });

  it('is refused with a 400 on every scoped route, and nothing moves', async () => {
    const other = await s.createPlatform({ name: 'bystander', clock: 'frozen', start: '2026-03-01T09:00:00Z' });
    const before = { clock: (await s.clock.state()).now, other: (await s.tenant(other.apiKey).clock.state()).now };
    const wrong: string[] = [];
    // One route at a time, its forms side by side: about 800 raw requests.
    for (const route of SCOPED)
      await Promise.all(
        KEY_FORMS.map(async (form) => {
          const body =
            route.method === 'POST' || route.method === 'PUT' ? '{"by":"1d","to":"2030-01-01T00:00:00Z"}' : '';
          const answer = await send(route.method, `/__sandbox/platforms/${form}${route.path}`, body);
          const json = JSON.parse(answer.body) as { code: number; message: string };
          if (answer.status !== 400 || json.code !== 400 || !/path|API key/.test(json.message))
            wrong.push(`${route.method} ${form}${route.path}: ${answer.status} ${answer.body.slice(0, 120)}`);
        }),
      );
    expect(wrong).toEqual([]);
    expect((await s.clock.state()).now).toBe(before.clock);
    expect((await s.tenant(other.apiKey).clock.state()).now).toBe(before.other);
  }, 120_000);

  it('names the rule: letters, digits, _ and -, 1 to 200 characters', async () => {
    const answer = await send('GET', '/__sandbox/platforms/a%2fb/clock');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toMatch(/letters, digits, _ and -.*200/i);
    const dots = await send('POST', '/__sandbox/platforms/%2e%2e/reset');
    expect(dots.status).toBe(400);
    expect(JSON.parse(dots.body).message).toMatch(/\.\. segment/);
  });

  it('is matched after decoding: a key sent percent-encoded reaches its own tenant', async () => {
    const mine = await s.createPlatform({ apiKey: 'pk_encoded-key', clock: 'frozen', start: '2026-03-01T09:00:00Z' });
    const encoded = [...mine.apiKey].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join('');
    const answer = await send('POST', `/__sandbox/platforms/${encoded}/clock/advance`, '{"by":"1h"}');
    expect(answer.status).toBe(200);
    expect((await s.tenant(mine.apiKey).clock.state()).now).toBe('2026-03-01T10:00:00.000Z');
    expect((await s.clock.state()).now).toBe('2026-03-01T09:00:00.000Z');
  });

  it('is refused in process too: sandbox.tenant() and createPlatform() and a reset by apiKey take names only', async () => {
    await expect(s.tenant('../x').clock.state()).rejects.toThrow(/letters, digits, _ and -/);
    await expect(s.createPlatform({ apiKey: '..' })).rejects.toThrow(/letters, digits, _ and -/);
    await expect(s.reset({ apiKey: 'a/b' })).rejects.toThrow(/letters, digits, _ and -/);
  });

  it('is refused where a key is made: --api-key and the fixtures', () => {
    expect(() => resolveConfig({ apiKey: '../all' }, { port: 0 })).toThrow(/api-key "..\/all" is not an API key/);
    expect(() => parseWith(fixtureFileSchema(), { platforms: [{ apiKey: 'a%2fb', secret: 's' }] })).toThrow(
      /letters, digits, _ and -/,
    );
  });
});
