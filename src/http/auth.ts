/**
 * Who is calling (docs/compatibility.md). Three kinds of credentials:
 * - a platform token (`Authorization: Bearer`), acting for any client of its platform named in `data.clientKey`;
 * - a client token, acting for one client only (`data.clientKey` optional, 403 when it names another client);
 * - the API-key header (`X-Service-Key` by default, and always the real service's `X-Sendforsign-Key`) plus
 *   `data.clientKey`, with a platform token's rights.
 * Whether a token is live is the domain's rule (domain/tokens.ts); this file reads the headers (core/credentials.ts),
 * once per request (`operationContext`, a middleware on /api/*), and checks them when an endpoint needs a caller.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { type Credentials, REAL_SERVICE_KEY_HEADER, bearerToken, readCredentials } from '../core/credentials.js';
import { ApiError } from '../core/errors.js';
import { clientFor } from '../domain/clients.js';
import { type OpContext, type Principal, type Services, enterTenant } from '../domain/context.js';
import { platformByApiKey } from '../domain/platforms.js';
import { checkToken } from '../domain/tokens.js';
import type { Scope } from '../resources/action.js';
import type { ApiEnv } from './variables.js';

/**
 * The middleware on /api/*: gives the request its operation context (`c.var.op`, no caller yet; every property
 * present from the start, one object shape for every request) and reads its credential headers.
 */
export function operationContext(services: Services, apiKeyHeader: string): MiddlewareHandler<ApiEnv> {
  return (c, next) => {
    c.set('op', {
      store: services.store,
      clock: services.clock,
      clocks: services.clocks,
      bus: services.bus,
      ids: services.ids,
      cause: 'api',
      principal: undefined,
      client: undefined,
      trace: c.get('trace'),
    });
    c.set('credentials', readCredentials(c.req.raw.headers, apiKeyHeader));
    return next();
  };
}

/**
 * The request's operation context with its caller: the credentials checked (401/403 when they do not hold),
 * except on public endpoints, which read none.
 */
export function identify(c: Context<ApiEnv>, scope: Scope): OpContext {
  // c.get, not c.var: Hono builds c.var anew, from every variable, on each read.
  const ctx = c.get('op');
  if (scope !== 'public') {
    ctx.principal = authenticate(ctx, c.get('credentials'));
    enterTenant(ctx, ctx.principal.platformId);
  }
  return ctx;
}

/**
 * For client-scoped endpoints: the client acted for, named by `clientKey` (at `path` in the input) or by the client
 * token; tenant isolation is domain/clients.ts's rule. Platform-scoped ones refuse client tokens (`what` names the
 * operation in the 403).
 */
export function admit(ctx: OpContext, scope: Scope, clientKey: string | undefined, path: string, what: string): void {
  if (!ctx.principal) return;
  if (scope === 'platform' && ctx.principal.kind === 'client-token')
    throw ApiError.forbidden(`A client token cannot ${what}; use a platform token`);
  if (scope === 'client') ctx.client = clientFor(ctx, ctx.principal, clientKey, path);
}

function authenticate(services: Services, credentials: Credentials): Principal {
  if (credentials.authorization !== undefined) {
    const bearer = bearerToken(credentials.authorization);
    if (bearer === undefined) throw ApiError.unauthorized('Authorization header must be "Bearer <access_token>"');
    const token = checkToken(services, bearer);
    return token.kind === 'client'
      ? { kind: 'client-token', platformId: token.platformId, clientKey: token.clientKey!, token: token.token }
      : { kind: 'platform-token', platformId: token.platformId, token: token.token };
  }
  if (credentials.apiKey !== undefined) {
    const platform = platformByApiKey(services, credentials.apiKey.trim());
    // The real service answers an invalid key with 403 [D:introapi] (missing credentials stay 401).
    if (!platform) throw ApiError.forbidden('Invalid API key: no platform has this key');
    return { kind: 'api-key', platformId: platform.platformId };
  }
  throw ApiError.unauthorized(
    `Missing credentials: send "Authorization: Bearer <access_token>" or the "${credentials.apiKeyHeader}: <apiKey>" header (or "${REAL_SERVICE_KEY_HEADER}")`,
  );
}
