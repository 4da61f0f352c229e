/**
 * Who is calling (decisions §4). Three kinds of credentials:
 * - a platform token (`Authorization: Bearer`), acting for any client of its platform named in `data.clientKey`;
 * - a client token, acting for one client only (`data.clientKey` optional, 403 when it names another client);
 * - the API-key header (`X-Service-Key` by default) plus `data.clientKey`, with a platform token's rights.
 * Tokens expire after 1800 s of sandbox time; the expired answer is the spec's one documented error.
 */
import type { OpContext, Principal, Services } from '../domain/context.js';
import { ApiError, quote } from '../core/errors.js';
import type { ClientRecord, TokenRecord } from '../store/records.js';

export const TOKEN_LIFETIME_SECONDS = 1800;

export interface AuthHeaders {
  authorization?: string | undefined;
  apiKey?: string | undefined;
}

export function authenticate(services: Services, headers: AuthHeaders, apiKeyHeader: string): Principal {
  if (headers.authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization);
    if (!match) throw ApiError.unauthorized('Authorization header must be "Bearer <access_token>"');
    const token = checkToken(services, match[1]!);
    return token.kind === 'client'
      ? { kind: 'client-token', platformId: token.platformId, clientKey: token.clientKey!, token: token.token }
      : { kind: 'platform-token', platformId: token.platformId, token: token.token };
  }
  if (headers.apiKey !== undefined) {
    const platform = services.store.platforms.where('apiKey', headers.apiKey.trim())[0];
    if (!platform) throw ApiError.unauthorized(`Invalid API key in the ${apiKeyHeader} header`);
    return { kind: 'api-key', platformId: platform.platformId };
  }
  throw ApiError.unauthorized(
    `Missing credentials: send "Authorization: Bearer <access_token>" or the "${apiKeyHeader}: <apiKey>" header`,
  );
}

/** A live token, or the 401 that says why not. */
export function checkToken(services: Services, value: string): TokenRecord {
  const token = services.store.tokens.get(value);
  if (!token || !services.store.platforms.has(token.platformId)) throw ApiError.unauthorized('Invalid access token');
  if (token.revokedAt !== undefined) throw ApiError.unauthorized('Token revoked');
  if (services.clock.now() >= token.expiresAt) throw ApiError.unauthorized('Token expired');
  if (token.clientKey !== undefined && !services.store.clients.has(token.clientKey)) {
    throw ApiError.unauthorized('Invalid access token');
  }
  return token;
}

/** Platform-level operations (client create, token create) refuse client tokens. */
export function requirePlatformPrincipal(principal: Principal, what: string): void {
  if (principal.kind === 'client-token') throw ApiError.forbidden(`A client token cannot ${what}; use a platform token`);
}

/**
 * The client an operation acts for. Keys of other platforms answer 404 like keys that do not exist, so a
 * tenant never learns that another tenant's client exists.
 */
export function resolveClient(ctx: OpContext, principal: Principal, clientKey: string | undefined, field = 'data.clientKey'): ClientRecord {
  if (principal.kind === 'client-token') {
    if (clientKey !== undefined && clientKey !== principal.clientKey) {
      throw ApiError.forbidden(`This client token belongs to another client than ${field} ${quote(clientKey)}`);
    }
    return findClient(ctx, principal.platformId, principal.clientKey);
  }
  if (clientKey === undefined || clientKey === '') {
    const how = principal.kind === 'api-key' ? 'with the API-key header' : 'with a platform token';
    throw ApiError.badRequest(`${field} is required ${how}`, [{ path: field, message: 'Required' }]);
  }
  return findClient(ctx, principal.platformId, clientKey);
}

function findClient(ctx: OpContext, platformId: string, clientKey: string): ClientRecord {
  const client = ctx.store.clients.get(clientKey);
  if (!client || client.platformId !== platformId) throw ApiError.notFound('Client not found');
  return client;
}
