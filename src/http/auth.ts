/**
 * The /api edge's checks of who is calling. The caller itself is worked out once, as the request arrives (the travel
 * object's `caller`, domain/request-facts.ts); here an operation that needs one meets its refusal (401/403), an
 * operation for one client gets that client (tenant isolation is domain/clients.ts's rule), and the operation's
 * context is built once, from both (domain/context.ts `apiContext`).
 */
import type { Context } from 'hono';
import { ApiError } from '../core/errors.js';
import { clientFor } from '../domain/clients.js';
import { type OpContext, type Principal, apiContext } from '../domain/context.js';
import type { RequestEnv } from '../domain/request-facts.js';
import { requestBody } from './body.js';
import type { ClientRecord } from '../store/records.js';
import type { Scope } from '../resources/action.js';

/**
 * The request's caller, for an operation of this scope: its credentials' principal, or the refusal they met thrown;
 * undefined for a public operation, which reads no credentials.
 */
export function identify(c: Context<RequestEnv>, scope: Scope): Principal | undefined {
  if (scope === 'public') return undefined;
  // c.get, not c.var: Hono builds c.var anew, from every variable, on each read.
  const caller = c.get('request').caller;
  if (caller instanceof ApiError || caller === undefined) throw caller ?? new Error('not an /api request');
  return caller;
}

/**
 * For client-scoped operations: the client acted for, named by `clientKey` (at `path` in the input) or by the client
 * token. Platform-scoped ones refuse client tokens (`what` names the operation in the 403).
 */
export function admit(
  c: Context<RequestEnv>,
  principal: Principal | undefined,
  scope: Scope,
  clientKey: string | undefined,
  path: string,
  what: string,
): ClientRecord | undefined {
  if (!principal) return undefined;
  if (scope === 'platform' && principal.kind === 'client-token')
    throw ApiError.forbidden(`A client token cannot ${what}; use a platform token`);
  return scope === 'client' ? clientFor(c.get('services'), principal, clientKey, path) : undefined;
}

/**
 * The operation's context, built once its caller and client are known, in the request's tenant (the travel object's,
 * domain/request-facts.ts): the caller's, or, for a public operation, the tenant of the key it names (its share link,
 * a token create's API key).
 */
export function operationContext(
  c: Context<RequestEnv>,
  principal: Principal | undefined,
  client: ClientRecord | undefined,
): OpContext {
  return apiContext(c.get('services'), requestBody(c).tenant, { principal, client }, c.get('trace'));
}
