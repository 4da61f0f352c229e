/**
 * Access tokens (docs/errors.md): platform tokens from the API key and secret, client tokens for one
 * client. Tokens expire after 1800 s of sandbox time; the expired answer is the spec's one documented error.
 */
import { ApiError } from '../core/errors.js';
import type { OpContext } from './context.js';
import type { TokenKind, TokenRecord } from '../store/records.js';

export const TOKEN_LIFETIME_SECONDS = 1800;

/** Which tokens a control operation or scenario step is about. */
export type TokenSelector = 'all' | 'platform' | { client: string } | { token: string };

export function issueToken(ctx: OpContext, kind: TokenKind, platformId: string, clientKey?: string): TokenRecord {
  const now = ctx.clock.now();
  const token = ctx.store.tokens.insert({
    token: ctx.ids.key(48),
    kind,
    platformId,
    ...(clientKey !== undefined ? { clientKey } : {}),
    issuedAt: now,
    expiresAt: now + TOKEN_LIFETIME_SECONDS * 1000,
  });
  ctx.bus.emit({
    type: 'token.created',
    platformId,
    kind,
    ...(clientKey !== undefined ? { clientKey } : {}),
    cause: ctx.cause,
  });
  return token;
}

/**
 * A platform token for the platform whose API key and secret these are. `ctx` is in that platform's tenant: the
 * request names it by the API key in its body (http/auth.ts `operationContext`).
 */
export function issuePlatformToken(ctx: OpContext, apiKey: string, secret: string): TokenRecord {
  const platform = ctx.store.platforms.where('apiKey', apiKey)[0];
  if (!platform || platform.secret !== secret) throw ApiError.unauthorized('Invalid API key or secret');
  return issueToken(ctx, 'platform', platform.platformId);
}

/** A live token, or the 401 that says why not. */
export function checkToken(ctx: Pick<OpContext, 'store' | 'clocks'>, value: string): TokenRecord {
  const token = ctx.store.tokens.get(value);
  if (!token || !ctx.store.platforms.has(token.platformId)) throw ApiError.unauthorized('Invalid access token');
  if (token.revokedAt !== undefined) throw ApiError.unauthorized('Token revoked');
  // Expiry is judged by the clock of the token's tenant (its own, when it has one).
  if (ctx.clocks.of(token.platformId).now() >= token.expiresAt) throw ApiError.unauthorized('Token expired');
  if (token.clientKey !== undefined && !ctx.store.clients.has(token.clientKey))
    throw ApiError.unauthorized('Invalid access token');
  return token;
}

/** Revokes a token of this platform. Revoking is idempotent: a revoked or expired token simply stays unusable. */
export function revokeToken(ctx: OpContext, platformId: string, value: string): void {
  const target = ctx.store.tokens.get(value);
  if (!target || target.platformId !== platformId) throw ApiError.notFound('Token not found');
  if (target.revokedAt === undefined) ctx.store.tokens.update(target.token, { revokedAt: ctx.clock.now() });
}

/**
 * Makes tokens expire now. One named token expires whatever its state (404 when it does not exist); a selection
 * expires its live tokens only. Returns how many expired.
 */
export function expireTokens(ctx: OpContext, which: TokenSelector, platformId?: string): number {
  // Each token expires at the time of its own tenant's clock.
  const nowOf = (t: TokenRecord) => ctx.clocks.of(t.platformId).now();
  if (typeof which === 'object' && 'token' in which) {
    const record = ctx.store.tokens.get(which.token);
    if (!record || (platformId !== undefined && record.platformId !== platformId))
      throw ApiError.notFound('Token not found');
    ctx.store.tokens.update(record.token, { expiresAt: Math.min(record.expiresAt, nowOf(record)) });
    return 1;
  }
  const live = selectTokens(ctx, which, platformId).filter((t) => t.expiresAt > nowOf(t) && t.revokedAt === undefined);
  for (const t of live) ctx.store.tokens.update(t.token, { expiresAt: nowOf(t) });
  return live.length;
}

/** Revokes the selected tokens that are not revoked yet. Returns how many. */
export function revokeTokens(
  ctx: OpContext,
  which: Exclude<TokenSelector, { token: string }>,
  platformId?: string,
): number {
  const open = selectTokens(ctx, which, platformId).filter((t) => t.revokedAt === undefined);
  for (const t of open) ctx.store.tokens.update(t.token, { revokedAt: ctx.clocks.of(t.platformId).now() });
  return open.length;
}

/** The selected tokens, of one tenant when `platformId` is given. */
function selectTokens(
  ctx: OpContext,
  which: Exclude<TokenSelector, { token: string }>,
  platformId?: string,
): TokenRecord[] {
  const all =
    platformId === undefined
      ? ctx.store.tokens.all()
      : ctx.store.tokens.all().filter((t) => t.platformId === platformId);
  if (which === 'all') return all;
  if (which === 'platform') return all.filter((t) => t.kind === 'platform');
  return all.filter((t) => t.clientKey === which.client);
}
