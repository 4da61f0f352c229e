/**
 * POST /api/token (interface §5). Four operations share one path and are told apart by their bodies:
 * platform token create is the only one with a `data` wrapper; the others put `action` at the top level
 * and authenticate with a platform token.
 */
import { z } from 'zod';
import { TOKEN_LIFETIME_SECONDS } from '../http/auth.js';
import type { OpContext, Principal } from '../domain/context.js';
import { ApiError } from '../core/errors.js';
import { type ResourceSpec, defineAction, keyField, reply } from './action.js';
import { matchOperation } from '../http/router.js';
import type { TokenKind, TokenRecord } from '../store/records.js';

function issueToken(ctx: OpContext, kind: TokenKind, platformId: string, clientKey?: string) {
  const now = ctx.clock.now();
  const token: TokenRecord = {
    token: ctx.ids.key(48),
    kind,
    platformId,
    ...(clientKey !== undefined ? { clientKey } : {}),
    issuedAt: now,
    expiresAt: now + TOKEN_LIFETIME_SECONDS * 1000,
  };
  ctx.store.tokens.insert(token);
  // Token create answers only these three fields, with no code or message (decisions §2).
  return { status: 201, body: { access_token: token.token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS } };
}

function platformOf(principal: Principal | undefined, what: string): { platformId: string; token?: string } {
  if (!principal) throw new Error('authenticated action without principal');
  if (principal.kind === 'client-token') throw ApiError.forbidden(`A client token cannot ${what}; use a platform token`);
  return principal.kind === 'platform-token'
    ? { platformId: principal.platformId, token: principal.token }
    : { platformId: principal.platformId };
}

function revoke(ctx: OpContext, token: TokenRecord) {
  ctx.store.tokens.update(token.token, { revokedAt: ctx.clock.now() });
  return reply(201, 'Token revoked', {}, { numericCode: true });
}

export const tokenResource: ResourceSpec = {
  path: '/api/token',
  selector: 'action',
  select(body) {
    if (body.data !== undefined) {
      const data = body.data;
      const action = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>).action : undefined;
      if (action === 'create') return 'createPlatformToken';
      if (action === 'revoke') {
        throw ApiError.badRequest('Token revoke takes "action" at the top level of the body, with no "data" wrapper', [
          { path: 'data', message: 'Not expected for revoke' },
        ]);
      }
      return matchOperation({ ...tokenResource, actions: { create: tokenResource.actions.createPlatformToken! } }, action, 'data.action');
    }
    const action = matchOperation(
      { ...tokenResource, actions: { create: tokenResource.actions.createClientToken!, revoke: tokenResource.actions.revokeToken! } },
      body.action,
      'action',
    );
    return action === 'create' ? 'createClientToken' : 'revokeToken';
  },
  actions: {
    createPlatformToken: defineAction({
      summary: 'Create a platform token from the platform API key and secret',
      wireName: 'create',
      scope: 'public',
      schema: () => z.object({ data: z.object({ action: z.literal('create'), apiKey: z.string(), secret: z.string() }) }),
      example: { data: { action: 'create', apiKey: '<API_KEY>', secret: '<SECRET>' } },
      handle(input, ctx) {
        const platform = ctx.store.platforms.where('apiKey', input.data.apiKey)[0];
        if (!platform || platform.secret !== input.data.secret) throw ApiError.unauthorized('Invalid API key or secret');
        return issueToken(ctx, 'platform', platform.platformId);
      },
    }),
    createClientToken: defineAction({
      summary: 'Create a client token for one client (platform bearer token)',
      wireName: 'create',
      scope: 'platform',
      schema: () => z.object({ action: z.literal('create'), clientKey: keyField() }),
      example: { action: 'create', clientKey: '<CLIENT_KEY>' },
      handle(input, ctx) {
        const { platformId } = platformOf(ctx.principal, 'create tokens');
        const client = ctx.store.clients.get(input.clientKey);
        if (!client || client.platformId !== platformId) throw ApiError.notFound('Client not found');
        return issueToken(ctx, 'client', platformId, client.clientKey);
      },
    }),
    revokeToken: defineAction({
      summary: 'Revoke the calling platform token, or a client token named in access_token',
      wireName: 'revoke',
      scope: 'platform',
      schema: () => z.object({ action: z.literal('revoke'), access_token: z.string().min(1).optional() }),
      example: { action: 'revoke', access_token: '<CLIENT_TOKEN>' },
      handle(input, ctx) {
        const caller = platformOf(ctx.principal, 'revoke tokens');
        if (input.access_token === undefined) {
          if (!caller.token) {
            throw ApiError.badRequest('Name the token to revoke in access_token, or call with the platform token to revoke it', [
              { path: 'access_token', message: 'Required with the API-key header' },
            ]);
          }
          return revoke(ctx, ctx.store.tokens.get(caller.token)!);
        }
        const target = ctx.store.tokens.get(input.access_token);
        if (!target || target.platformId !== caller.platformId) throw ApiError.notFound('Token not found');
        // Revoking is idempotent: an already revoked or expired token is simply (still) unusable.
        if (target.revokedAt !== undefined) return reply(201, 'Token revoked', {}, { numericCode: true });
        return revoke(ctx, target);
      },
    }),
  },
};
