/** Platform accounts: the tenants of the sandbox (README.md, "The control API"). Each has its own API key and secret. */
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
