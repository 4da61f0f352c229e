/**
 * Test harness: an in-process sandbox answered through `app.request()` (no port), with small helpers to
 * call the API the way a client would.
 */
import { afterEach, beforeEach } from 'vitest';
import type { SandboxOptions } from '../../src/config/options.js';
import { type Sandbox, type StartDefaults, createSandbox } from '../../src/sandbox.js';
import { checkApiResponse } from './openapi-check.js';

export const DEMO = {
  apiKey: 'sandboxApiKey',
  secret: 'sandboxSecret',
  clientKey: 'demoClient',
  userKey: 'demoUser',
  templateKey: 'demoTemplate',
} as const;

/** The /api paths of the service, in the order of its documentation (docs/compatibility.md). */
export const API_PATHS = [
  '/api/token',
  '/api/client',
  '/api/user',
  '/api/contract',
  '/api/recipient',
  '/api/template',
  '/api/placeholder',
  '/api/settings',
  '/api/webhook',
];

/**
 * How many operations the envelope resources of API_PATHS hold, together: the OpenAPI and fuzz tests fail when the
 * tables lose or gain one unseen. Adding an /api action is its declaration plus this number.
 */
export const API_ACTION_COUNT = 40;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestSandbox {
  sandbox: Sandbox;
  /** POST a JSON body to an /api path with optional credentials. */
  post(path: string, body: unknown, auth?: Auth): Promise<Answer>;
  /** Any request, raw. */
  request(path: string, init?: RequestInit): Promise<Answer>;
  /** A platform token for the demo platform (or the given credentials). */
  platformToken(creds?: { apiKey: string; secret: string }): Promise<string>;
  /** A client token for a client (default: the demo client). */
  clientToken(clientKey?: string, platformToken?: string): Promise<string>;
  /** A client-token auth for the demo client. */
  demoAuth(): Promise<Auth>;
  control(path: string, body?: unknown, method?: string): Promise<Answer>;
  close(): Promise<void>;
}

export type Auth = { bearer: string } | { apiKey: string; header?: string } | undefined;

/** `fallback`: how the sandbox starts (src/sandbox.ts `StartDefaults`), e.g. with a renderer that holds its jobs. */
export async function testSandbox(
  options: SandboxOptions = {},
  fallback: StartDefaults = { port: 0 },
): Promise<TestSandbox> {
  return testDoors(await createSandbox(options, fallback));
}

/** The helpers of `testSandbox` around a sandbox made elsewhere (the library's `startSandbox(...).sandbox`). */
export function testDoors(sandbox: Sandbox): TestSandbox {
  const request = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await sandbox.app.request(path, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text so the assertion shows it */
    }
    // Every /api answer is checked against the OpenAPI document (openapi-check.ts).
    checkApiResponse(init.method ?? 'GET', path, res.status, body, res.headers);
    return { status: res.status, body, headers: res.headers };
  };
  const post = (path: string, body: unknown, auth?: Auth) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth && 'bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`;
    if (auth && 'apiKey' in auth) headers[auth.header ?? 'x-service-key'] = auth.apiKey;
    return request(path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  };
  const platformToken = async (creds: { apiKey: string; secret: string } = DEMO) => {
    const res = await post('/api/token', { data: { action: 'create', ...creds } });
    if (res.status !== 201) throw new Error(`platform token: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.access_token as string;
  };
  const clientToken = async (clientKey: string = DEMO.clientKey, platform?: string) => {
    const res = await post(
      '/api/token',
      { action: 'create', clientKey },
      { bearer: platform ?? (await platformToken()) },
    );
    if (res.status !== 201) throw new Error(`client token: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.access_token as string;
  };
  return {
    sandbox,
    post,
    request,
    platformToken,
    clientToken,
    demoAuth: async () => ({ bearer: await clientToken() }),
    control: (path, body, method) =>
      request(`/__sandbox${path}`, {
        method: method ?? (body === undefined ? 'GET' : 'POST'),
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    close: () => sandbox.close(),
  };
}

/** A frozen sandbox at a fixed time, for exact timestamps. */
export const FROZEN = { clock: 'frozen', start: '2026-03-01T09:00:00.000Z' } as const satisfies SandboxOptions;

/**
 * A fresh sandbox for each test of a file, made before the test and closed after it: `const t = sandboxEachTest();`
 * at the top of the file, then `t.post(…)` in a test. What it answers reads the current test's sandbox (its helpers
 * are plain functions, so they are handed on as they are).
 */
export function sandboxEachTest(options: SandboxOptions = FROZEN): TestSandbox {
  let current: TestSandbox | undefined;
  beforeEach(async () => {
    current = await testSandbox(options);
  });
  afterEach(() => current?.close());
  return new Proxy({} as TestSandbox, {
    get: (_target, name) => {
      if (!current) throw new Error('sandboxEachTest: read its sandbox inside a test, not while the file loads');
      return current[name as keyof TestSandbox];
    },
  });
}

/**
 * Closes what a test opened after it, passed or failed, newest first: `const opened = closeAfterEach();` at the top of
 * a file, then `t = opened(await testSandbox())` in a test.
 */
export function closeAfterEach(): <T extends { close(): unknown }>(thing: T) => T {
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const thing of open.splice(0).reverse()) await thing.close();
  });
  return (thing) => {
    open.push(thing);
    return thing;
  };
}
