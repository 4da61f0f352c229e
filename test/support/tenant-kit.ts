/**
 * A tenant as a test drives it over HTTP: made with its own clock, then its client, webhook, tokens and contracts
 * through /api with its API key, and its world through /__sandbox/platforms/{apiKey}/… (docs/library.md).
 * Plain fetch, so the child-process workers (tenant-worker.mjs) do the same with the same calls.
 */
export interface TenantHandle {
  apiKey: string;
  secret: string;
  platformId: string;
  /** A control call scoped to the tenant. */
  control(method: string, path: string, body?: unknown): Promise<any>;
  /** An /api call with the tenant's API key (or a bearer token). */
  api(path: string, body: unknown, bearer?: string): Promise<{ status: number; body: any }>;
}

/** A platform token from /api/token, fetched over HTTP as an integration gets one. */
export async function platformTokenOverHttp(
  url: string,
  platform: { apiKey: string | undefined; secret: string | undefined },
): Promise<string> {
  const res = await fetch(`${url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { action: 'create', apiKey: platform.apiKey, secret: platform.secret } }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function makeTenant(url: string, start: string, name = 'tenant'): Promise<TenantHandle> {
  const res = await fetch(`${url}/__sandbox/platforms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, clock: 'frozen', start }),
  });
  if (res.status !== 201) throw new Error(`platform: ${res.status} ${await res.text()}`);
  const platform = (await res.json()) as { apiKey: string; secret: string; platformId: string };
  const control = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${url}/__sandbox/platforms/${platform.apiKey}${path}`, {
      method,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    return JSON.parse(text);
  };
  const api = async (path: string, body: unknown, bearer?: string) => {
    const r = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : { 'x-service-key': platform.apiKey }),
      },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };
  return { ...platform, control, api };
}
