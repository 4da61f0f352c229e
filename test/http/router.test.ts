/**
 * The router's one path for plain endpoints (http/router.ts, http/auth.ts): the caller comes from the request's travel
 * object (the `arrive` stage, http/stages.ts), a `public` endpoint reads no credentials, the others check them, and the answer is what the
 * handler returned. A throwaway resource on a bare app keeps the test about the path, not any one endpoint.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { arrive } from '../../src/http/stages.js';
import { mountEndpoints } from '../../src/http/router.js';
import type { RequestEnv } from '../../src/domain/request-facts.js';
import { ApiError } from '../../src/core/errors.js';
import { type PlainResource, defineEndpoint } from '../../src/resources/action.js';
import { testSandbox } from '../support/helpers.js';

const probe: PlainResource = {
  path: '/api/probe',
  endpoints: [
    defineEndpoint({
      method: 'GET',
      summary: 'Who am I, with no credentials needed',
      scope: 'public',
      schema: () => z.object({ shareLink: z.string() }),
      response: () => z.object({ shareLink: z.string(), principal: z.string().nullable(), cause: z.string() }),
      handle: (input, ctx) => ({
        status: 200,
        body: { shareLink: input.shareLink, principal: ctx.principal?.kind ?? null, cause: ctx.cause },
      }),
    }),
    defineEndpoint({
      method: 'POST',
      summary: 'Who am I, for a client',
      scope: 'client',
      schema: () => z.object({ clientKey: z.string().optional() }),
      response: () => z.object({ principal: z.string().nullable(), client: z.string().nullable() }),
      handle: (_input, ctx) => ({
        status: 200,
        body: { principal: ctx.principal?.kind ?? null, client: ctx.client?.clientKey ?? null },
      }),
    }),
  ],
};

async function world() {
  const t = await testSandbox({ seed: 1 });
  const app = new Hono<RequestEnv>();
  app.use('*', arrive(t.sandbox.services, 'x-service-key'));
  mountEndpoints(app, probe, { maxBodyBytes: 1024 });
  app.onError((error, c) =>
    error instanceof ApiError ? c.json(error.toBody(), error.status) : c.json({ message: String(error) }, 500),
  );
  return { t, app };
}

describe('the router path of a plain endpoint', () => {
  it('serves a public endpoint without credentials, and ignores credentials that would be refused', async () => {
    const { t, app } = await world();
    const tries: Record<string, string>[] = [{}, { authorization: 'Bearer nonsense' }, { 'x-service-key': 'wrong' }];
    for (const headers of tries) {
      const res = await app.request('/api/probe?shareLink=abc', { headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ shareLink: 'abc', principal: null, cause: 'api' });
    }
    await t.close();
  });

  it('checks credentials on a client endpoint and names the client acted for', async () => {
    const { t, app } = await world();
    const post = (headers: Record<string, string>, body: unknown) =>
      app.request('/api/probe', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    expect((await post({}, {})).status).toBe(401);
    expect((await post({ 'x-service-key': 'wrong' }, { clientKey: 'demoClient' })).status).toBe(403);
    const ok = await post({ 'x-service-key': 'sandboxApiKey' }, { clientKey: 'demoClient' });
    expect(await ok.json()).toEqual({ principal: 'api-key', client: 'demoClient' });
    const token = await post({ authorization: `Bearer ${await t.clientToken()}` }, {});
    expect(await token.json()).toEqual({ principal: 'client-token', client: 'demoClient' });
    await t.close();
  });

  it('gives each request its own operation context', async () => {
    const { t, app } = await world();
    const bearer = { authorization: `Bearer ${await t.clientToken()}`, 'content-type': 'application/json' };
    await app.request('/api/probe', { method: 'POST', headers: bearer, body: '{}' });
    const after = await app.request('/api/probe?shareLink=x');
    expect(await after.json()).toMatchObject({ principal: null });
    await t.close();
  });
});
