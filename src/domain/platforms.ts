/** Platform accounts: the tenants of the sandbox (README.md, "The control API"). Each has its own API key and secret. */
import { bearerToken } from '../core/credentials.js';
import { ApiError } from '../core/errors.js';
import type { OpContext } from './context.js';
import type { PlatformRecord } from '../store/records.js';

export interface NewPlatform {
  /** A fixed platform id (fixtures); generated when absent. */
  platformId?: string | undefined;
  apiKey?: string | undefined;
  secret?: string | undefined;
  name?: string | undefined;
}

export function platformByApiKey(ctx: Pick<OpContext, 'store'>, apiKey: string): PlatformRecord | undefined {
  return ctx.store.platforms.where('apiKey', apiKey)[0];
}

/** A new platform; an API key already taken is refused (the message does not repeat the key: it is a secret). */
export function createPlatform(ctx: OpContext, input: NewPlatform = {}): PlatformRecord {
  if (input.apiKey !== undefined && platformByApiKey(ctx, input.apiKey))
    throw ApiError.conflict('A platform with this apiKey already exists');
  return ctx.store.platforms.insert({
    platformId: input.platformId ?? ctx.ids.key(),
    apiKey: input.apiKey ?? `pk${ctx.ids.key(22)}`,
    secret: input.secret ?? `sk${ctx.ids.key(30)}`,
    ...(input.name ? { name: input.name } : {}),
    createTime: ctx.clock.now(),
  });
}

/** What tells a request's tenant: its credentials, or what its body or query names. */
export interface RequestMarks {
  /** The Authorization header. */
  authorization?: string | null | undefined;
  /** The API-key header. */
  apiKey?: string | null | undefined;
  /** The parsed JSON body and the query parameters, when they were read. */
  body?: unknown;
  query?: Record<string, string>;
}

/**
 * The tenant (platformId) a request belongs to: by its bearer token, its API key (the header, or a platform token
 * create's `data.apiKey`), or the share link a recipient-side request names. Undefined when nothing tells.
 */
export function requestTenant(ctx: Pick<OpContext, 'store'>, marks: RequestMarks): string | undefined {
  const { store } = ctx;
  const bearer = marks.authorization ? bearerToken(marks.authorization) : undefined;
  if (bearer) return store.tokens.get(bearer)?.platformId;
  const apiKey = marks.apiKey ?? stringAt(marks.body, 'data', 'apiKey') ?? stringAt(marks.body, 'apiKey');
  if (apiKey) return platformByApiKey(ctx, apiKey.trim())?.platformId;
  const link = marks.query?.shareLink ?? stringAt(marks.body, 'shareLink');
  if (!link) return undefined;
  const recipient = store.recipients.get(link);
  return recipient?.platformId ?? store.shareLinks.get(link)?.platformId;
}

function stringAt(value: unknown, ...path: string[]): string | undefined {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}
