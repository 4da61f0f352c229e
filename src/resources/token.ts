/**
 * POST /api/token (docs/compatibility.md). Four operations share one path and are told apart by their bodies:
 * platform token create is the only one with a `data` wrapper; the others put `action` at the top level
 * and authenticate with a platform token.
 */
import { z } from 'zod';
import { findClient } from '../domain/clients.js';
import { TOKEN_LIFETIME_SECONDS, issuePlatformToken, issueToken, revokeToken } from '../domain/tokens.js';
import type { Principal } from '../domain/context.js';
import { ApiError } from '../core/errors.js';
import { operationValue } from '../core/operation.js';
import { type ResourceSpec, defineAction, keyField, matchOperation, reply } from './action.js';
import { okSchema } from './response-shape.js';
import type { TokenRecord } from '../store/records.js';

/** Token create answers only these three fields, with no code or message (docs/compatibility.md, "Codes"). */
function tokenReply(token: TokenRecord) {
  return { status: 201, body: { access_token: token.token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS } };
}

/** The answer of both token creates: these three fields, no code or message. */
const tokenSchema = () =>
  z.strictObject({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int() });

function platformOf(principal: Principal | undefined, what: string): { platformId: string; token?: string } {
  if (!principal) throw new Error('authenticated action without principal');
  if (principal.kind === 'client-token')
    throw ApiError.forbidden(`A client token cannot ${what}; use a platform token`);
  return principal.kind === 'platform-token'
    ? { platformId: principal.platformId, token: principal.token }
    : { platformId: principal.platformId };
}

export const tokenResource = {
  path: '/api/token',
  selector: 'action',
  select(body: Record<string, unknown>): string {
    if (body.data !== undefined) {
      const action = operationValue(body, 'action');
      if (action === 'create') return 'createPlatformToken';
      if (action === 'revoke') {
        throw ApiError.badRequest('Token revoke takes "action" at the top level of the body, with no "data" wrapper', [
          { path: 'data', message: 'Not expected for revoke' },
        ]);
      }
      return matchOperation(
        { ...tokenResource, actions: { create: tokenResource.actions.createPlatformToken! } },
        action,
        'data.action',
      );
    }
    const action = matchOperation(
      {
        ...tokenResource,
        actions: { create: tokenResource.actions.createClientToken!, revoke: tokenResource.actions.revokeToken! },
      },
      operationValue(body, 'action'),
      'action',
    );
    return action === 'create' ? 'createClientToken' : 'revokeToken';
  },
  actions: {
    createPlatformToken: defineAction({
      summary: 'Create a platform token from the platform API key and secret',
      wireName: 'create',
      scope: 'public',
      response: tokenSchema,
      schema: () =>
        z.object({ data: z.object({ action: z.literal('create'), apiKey: z.string(), secret: z.string() }) }),
      example: { data: { action: 'create', apiKey: '<API_KEY>', secret: '<SECRET>' } },
      handle(input, ctx) {
        return tokenReply(issuePlatformToken(ctx, input.data.apiKey, input.data.secret));
      },
    }),
    createClientToken: defineAction({
      summary: 'Create a client token for one client (platform bearer token)',
      wireName: 'create',
      scope: 'platform',
      response: tokenSchema,
      schema: () => z.object({ action: z.literal('create'), clientKey: keyField() }),
      example: { action: 'create', clientKey: '<CLIENT_KEY>' },
      handle(input, ctx) {
        const { platformId } = platformOf(ctx.principal, 'create tokens');
        const client = findClient(ctx, platformId, input.clientKey);
        return tokenReply(issueToken(ctx, 'client', platformId, client.clientKey));
      },
    }),
    revokeToken: defineAction({
      summary: 'Revoke the calling platform token, or a client token named in access_token',
      wireName: 'revoke',
      scope: 'platform',
      response: () => okSchema(201, {}, true),
      schema: () => z.object({ action: z.literal('revoke'), access_token: z.string().min(1).optional() }),
      example: { action: 'revoke', access_token: '<CLIENT_TOKEN>' },
      handle(input, ctx) {
        const caller = platformOf(ctx.principal, 'revoke tokens');
        if (input.access_token === undefined) {
          if (!caller.token) {
            throw ApiError.badRequest(
              'Name the token to revoke in access_token, or call with the platform token to revoke it',
              [{ path: 'access_token', message: 'Required with the API-key header' }],
            );
          }
          revokeToken(ctx, caller.platformId, caller.token);
        } else revokeToken(ctx, caller.platformId, input.access_token);
        return reply(201, 'Token revoked', {}, { numericCode: true });
      },
    }),
  },
} satisfies ResourceSpec;
