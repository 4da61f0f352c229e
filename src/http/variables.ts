/**
 * What one /api request carries in Hono's context variables (`c.var`), set by middleware written once: the
 * request's variables (core/request-variables.ts), its operation context (`op`, the OpContext domain code receives
 * instead of `c`) and the credentials it came with (`credentials`, read by http/auth.ts).
 */
import type { Credentials } from '../core/credentials.js';
import type { RequestVariables } from '../core/request-variables.js';
import type { OpContext } from '../domain/context.js';

export interface ApiVariables extends RequestVariables {
  op: OpContext;
  credentials: Credentials;
}

export type ApiEnv = { Variables: ApiVariables };
