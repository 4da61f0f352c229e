/**
 * Who is calling (decisions §4). Three kinds of credentials:
 * - a platform token (`Authorization: Bearer`), acting for any client of its platform named in `data.clientKey`;
 * - a client token, acting for one client only (`data.clientKey` optional, 403 when it names another client);
 * - the API-key header (`X-Service-Key` by default, and always the real service's `X-Sendforsign-Key`) plus
 *   `data.clientKey`, with a platform token's rights.
 * Whether a token is live is the domain's rule (domain/tokens.ts); this file reads the headers.
 */
import { ApiError } from '../core/errors.js';
import type { Principal, Services } from '../domain/context.js';
import { platformByApiKey } from '../domain/platforms.js';
import { checkToken } from '../domain/tokens.js';

export interface AuthHeaders {
  authorization?: string | undefined;
  apiKey?: string | undefined;
}

/** The real service's own API-key header [D], accepted beside the configured one so real clients work unchanged. */
export const REAL_SERVICE_KEY_HEADER = 'X-Sendforsign-Key';

/** The API key a request carries: in the configured header, else in the real service's. */
export function apiKeyOf(headers: Headers, apiKeyHeader: string): string | undefined {
  return headers.get(apiKeyHeader) ?? headers.get(REAL_SERVICE_KEY_HEADER) ?? undefined;
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
    const platform = platformByApiKey(services, headers.apiKey.trim());
    // The real service answers an invalid key with 403 [D:introapi] (missing credentials stay 401).
    if (!platform) throw ApiError.forbidden('Invalid API key: no platform has this key');
    return { kind: 'api-key', platformId: platform.platformId };
  }
  throw ApiError.unauthorized(
    `Missing credentials: send "Authorization: Bearer <access_token>" or the "${apiKeyHeader}: <apiKey>" header (or "${REAL_SERVICE_KEY_HEADER}")`,
  );
}

/** Platform-level operations (client create, token create) refuse client tokens. */
export function requirePlatformPrincipal(principal: Principal, what: string): void {
  if (principal.kind === 'client-token')
    throw ApiError.forbidden(`A client token cannot ${what}; use a platform token`);
}
