/**
 * The control API under /__sandbox (decisions §10): everything that exists only in the sandbox. JSON in, JSON
 * out, errors in the same format as the API. No credentials: it is a local test tool.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Services } from '../../domain/context.js';
import { ApiError } from '../../core/errors.js';
import { isoTime } from '../../core/time-format.js';
import { clockRoutes } from './clock.js';
import { controlBody } from './body.js';
import { lazy } from '../../core/lazy.js';

export type ResetResult = { scope: 'all' } | { scope: 'platform'; apiKey: string; platformId: string; removed: number; restored: number };

export interface ControlDeps {
  services: Services;
  maxBodyBytes: number;
  version: string;
  startedAt: number;
  /** Everything back to the seeded state, or only the platform whose apiKey is given (decisions §10). */
  reset(options?: { apiKey?: string | undefined }): Promise<ResetResult>;
  createPlatform(input: { apiKey?: string | undefined; secret?: string | undefined; name?: string | undefined }): { platformId: string; apiKey: string; secret: string };
}

export const resetBody = lazy(() => z.object({ apiKey: z.string().min(1).optional() }));
export const expireBody = lazy(() => z.object({ token: z.string().min(1).optional() }));
export const platformBody = lazy(() => z.object({
  apiKey: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'Letters, digits, _ and - only').optional(),
  secret: z.string().min(1).max(500).optional(),
  name: z.string().max(200).optional(),
}));

export function controlRoutes(deps: ControlDeps): Hono {
  const { services, maxBodyBytes } = deps;
  const { clock } = services;
  const app = new Hono();

  app.get('/health', (c) => c.json(health(services, deps.version)));

  app.post('/reset', async (c) => {
    const { apiKey } = await controlBody(c, resetBody(), maxBodyBytes);
    const result = await deps.reset({ apiKey });
    return c.json({ status: 'reset', ...result, now: isoTime(clock.now()) });
  });

  app.route('/clock', clockRoutes(clock, maxBodyBytes));

  app.post('/tokens/expire', async (c) => {
    const { token } = await controlBody(c, expireBody(), maxBodyBytes);
    return c.json(expireTokens(services, token));
  });

  app.post('/platforms', async (c) => {
    const input = await controlBody(c, platformBody(), maxBodyBytes);
    return c.json(deps.createPlatform(input), 201);
  });

  return app;
}

/** GET /__sandbox/health's answer. */
export function health(services: Services, version: string) {
  const { store, clock } = services;
  return {
    status: 'ok' as const,
    version,
    now: isoTime(clock.now()),
    clock: clock.isFrozen ? ('frozen' as const) : ('real' as const),
    persistent: store.persistent,
    counts: {
      platforms: store.platforms.size,
      clients: store.clients.size,
      contracts: store.contracts.size,
      webhooks: store.webhooks.size,
    },
  };
}

/** Force-expires one token, or every live one (POST /__sandbox/tokens/expire). */
export function expireTokens(services: Services, token?: string): { expired: number } {
  const { store, clock } = services;
  const now = clock.now();
  if (token !== undefined) {
    const record = store.tokens.get(token);
    if (!record) throw ApiError.notFound('Token not found');
    store.tokens.update(token, { expiresAt: Math.min(record.expiresAt, now) });
    return { expired: 1 };
  }
  let expired = 0;
  for (const record of store.tokens.all()) {
    if (record.expiresAt > now && record.revokedAt === undefined) {
      store.tokens.update(record.token, { expiresAt: now });
      expired++;
    }
  }
  return { expired };
}
