/** A list about one contract for its owner, as the vendor's ContractEditor asks for it: a JSON array. */
import { z } from 'zod';
import { type OpContext, requireClient } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import type { ContractRecord } from '../store/records.js';
import { clientKeyField, defineEndpoint } from './action.js';

/**
 * GET with `contractKey` (and `clientKey` with platform credentials). An empty contractKey answers `[]`: a new
 * contract editor asks before its contract exists (docs/compatibility.md, "Empty keys").
 */
export function contractListEndpoint<R extends z.ZodType>(spec: {
  summary: string;
  response: () => R;
  list(ctx: OpContext, contract: ContractRecord): unknown[];
}) {
  return defineEndpoint({
    method: 'GET',
    summary: spec.summary,
    scope: 'client',
    response: spec.response,
    schema: () => z.object({ contractKey: z.string(), clientKey: clientKeyField() }),
    example: { contractKey: '<CONTRACT_KEY>', clientKey: '<CLIENT_KEY>' },
    handle(input, ctx) {
      if (input.contractKey.trim() === '') return { status: 200, body: [] };
      return { status: 200, body: spec.list(ctx, findContract(ctx, requireClient(ctx), input.contractKey)) };
    },
  });
}
