/**
 * `verify` leaks nothing (docs/verify.md, "Safety rules"): against local targets written to misbehave, it sends no
 * credential to another origin (a redirect there ends the run, exit 2, naming both origins), it prints and writes
 * no secret, key or token in any form a target echoes it in, and a target that stops halfway is named with the
 * step and what was missing.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { targetArgs, verify } from '../support/verify-kit.js';

/** Credentials that URL-encoding and base64 change, so each form differs from the value. */
const API_KEY = 'pk_leak-Test_0123456789';
const SECRET = 'top secret/+=&?value';

let second: RunningSandbox;
let scratch: string;
beforeAll(async () => {
  second = await startSandbox({ apiKey: API_KEY, secret: SECRET });
  scratch = mkdtempSync(join(tmpdir(), 'verify-leaks-'));
});
afterAll(async () => {
  await second.close();
  rmSync(scratch, { recursive: true, force: true });
});

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => Promise<boolean> | boolean;

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** A target in front of `second`: `handle` answers what it wants to (true), the rest is forwarded. */
async function target(handle: Handler, alter?: (json: any, req: IncomingMessage) => void) {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    if (await handle(req, body, res)) return;
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization', 'x-sendforsign-key'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
    const upstream = await fetch(second.url + req.url, { method: req.method!, headers, ...(body ? { body } : {}) });
    const json = JSON.parse(await upstream.text());
    alter?.(json, req);
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Another origin that records every request it is sent. */
async function elsewhere() {
  const seen: string[] = [];
  const site = await target(async (req, body, res) => {
    seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
    return true;
  });
  return { ...site, seen };
}

function sentence(err: string): string {
  const lines = err.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('verify and redirects', () => {
  it.each([
    [301, '/api/token create'],
    [302, '/api/token create'],
    [307, '/api/token create'],
    [308, '/api/token create'],
    [301, '/api/user list'],
    [307, '/api/user list'],
  ])('an HTTP %i to another origin on %s: nothing is sent there, exit 2 naming both origins', async (status, at) => {
    const other = await elsewhere();
    const site = await target((req, body, res) => {
      if (`${req.url} ${JSON.parse(body || '{}').data?.action}` !== at) return false;
      res.writeHead(status, { location: `${other.url}${req.url}` });
      res.end();
      return true;
    });
    try {
      const run = await verify([...targetArgs({ url: site.url, apiKey: API_KEY }, SECRET), '--only', 'token']);
      expect(run.code).toBe(2);
      expect(sentence(run.err)).toContain(`${site.url} redirected`);
      expect(sentence(run.err)).toContain(`to another origin, ${other.url}`);
      expect(other.seen).toEqual([]);
    } finally {
      await site.close();
      await other.close();
    }
  });

  it('a 307 within the target follows, keeping the request', async () => {
    const site = await target((req, _body, res) => {
      if (!req.url!.startsWith('/old')) {
        if (req.url !== '/api/token') return false;
        res.writeHead(307, { location: `/old${req.url}` });
        res.end();
        return true;
      }
      req.url = req.url!.slice(4);
      return false;
    });
    try {
      const run = await verify([...targetArgs({ url: site.url, apiKey: API_KEY }, SECRET), '--only', 'token']);
      expect(run.err).toBe('');
      expect(run.out).toMatch(/token create \(platform\)\s+same/);
    } finally {
      await site.close();
    }
  });
});

/** Every form a target may echo `value` in: as is, URL-encoded, base64 alone or inside a longer text. */
function forms(value: string): string[] {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  return [
    value,
    encodeURIComponent(value),
    base64(value),
    Buffer.from(value).toString('base64url'),
    base64(`x${value}.`),
    base64(`xy${value}..`),
  ];
}

/** Which of `secrets` a text still holds: as is, URL-encoded, or decoded from any base64 run at any alignment. */
function stillHeld(text: string, secrets: string[]): string[] {
  const found = new Set<string>();
  const decoded = [text, decodeURIComponent(text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))];
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [])
    for (let skip = 0; skip < 4; skip++)
      for (const alphabet of ['base64', 'base64url'] as const)
        decoded.push(Buffer.from(run.slice(skip), alphabet).toString('latin1'));
  for (const secret of secrets) if (decoded.some((d) => d.includes(secret))) found.add(secret);
  return [...found];
}

describe('verify prints and writes no secret', () => {
  it('a target echoing the secret, the API key and the tokens in every encoding: none reaches the table, --json, --record or stderr', async () => {
    const tokens = new Set<string>();
    const echo = (req: IncomingMessage) => {
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (bearer) tokens.add(bearer);
      const basic = `Basic ${Buffer.from(`${API_KEY}:${SECRET}`).toString('base64')}`;
      const all = [API_KEY, SECRET, ...(bearer ? [bearer] : [])].flatMap(forms);
      return `echo ${basic} ${all.join(' ')}`;
    };
    const site = await target(
      () => false,
      (json, req) => {
        json.message = echo(req);
        if (json.access_token) tokens.add(json.access_token);
      },
    );
    const out = join(scratch, 'echo');
    try {
      const run = await verify([
        ...targetArgs({ url: site.url, apiKey: API_KEY }, SECRET),
        '--only',
        'token,client',
        '--json',
        join(out, 'verify.json'),
        '--record',
        join(out, 'transcripts'),
      ]);
      expect(run.code, run.err).toBe(1);
      const written = [
        run.out,
        run.err,
        readFileSync(join(out, 'verify.json'), 'utf8'),
        ...readdirSync(join(out, 'transcripts')).map((f) => readFileSync(join(out, 'transcripts', f), 'utf8')),
      ].join('\n');
      expect(written).toContain('<secret#1>');
      expect(tokens.size).toBeGreaterThan(1);
      expect(stillHeld(written, [API_KEY, SECRET, ...tokens])).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it('a refusal echoing the secret: the stderr sentence hides it', async () => {
    const site = await target((_req, _body, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 401, message: `wrong secret ${SECRET} (${encodeURIComponent(SECRET)})` }));
      return true;
    });
    try {
      const run = await verify(targetArgs({ url: site.url, apiKey: API_KEY }, SECRET));
      expect(run.code).toBe(2);
      expect(sentence(run.err)).toContain('wrong secret <secret#1> (<secret#1>)');
      expect(stillHeld(run.err, [SECRET])).toEqual([]);
    } finally {
      await site.close();
    }
  });
});

describe('verify names what a target that stops halfway did not send', () => {
  it.each([
    [
      'headers, then nothing',
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write('{"access_tok');
      },
      /timed out after 0\.5 s waiting for the body of token create \(platform\), POST \/api\/token at http:\/\/127\.0\.0\.1:\d+ \(HTTP 200, 12 bytes came of 500 declared\)/,
    ],
    [
      'headers, then a byte now and then',
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        const drip = setInterval(() => (res.writableEnded ? clearInterval(drip) : res.write(' ')), 50);
        res.on('close', () => clearInterval(drip));
      },
      /timed out after 0\.5 s waiting for the body of token create \(platform\), POST \/api\/token at http:\/\/127\.0\.0\.1:\d+ \(HTTP 200, \d+ bytes came of 500 declared\)/,
    ],
    [
      'nothing at all',
      () => undefined,
      /timed out after 0\.5 s waiting for the answer to token create \(platform\), POST \/api\/token at http:\/\/127\.0\.0\.1:\d+ \(no status line or headers came\)/,
    ],
  ])('%s', async (_name, stall, expected) => {
    const site = await target((_req, _body, res) => {
      stall(res);
      return true;
    });
    try {
      const run = await verify([...targetArgs({ url: site.url, apiKey: API_KEY }, SECRET), '--timeout', '0.5']);
      expect(run.code).toBe(2);
      const line = sentence(run.err);
      expect(line).toContain(site.url);
      expect(line).toMatch(expected);
    } finally {
      await site.close();
    }
  });
});
