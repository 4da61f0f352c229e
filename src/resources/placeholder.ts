/** POST /api/placeholder: create an ordinary placeholder; place special placeholders (insertions). */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { assertOpen, findContract } from '../domain/contracts.js';
import { addPlaceholder, placeSpecialPlaceholders, placeholdersOf } from '../domain/placeholders.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, keyField, optionalKeyField, reply } from './action.js';
import type { OpContext } from '../domain/context.js';
import type { PlaceholderRecord } from '../store/records.js';
import { findTemplate } from '../domain/templates.js';

/** The contract or template the request names, of the caller's client (404 otherwise). */
function ownerOf(ctx: OpContext, data: { contractKey?: string | undefined; templateKey?: string | undefined }) {
  const client = requireClient(ctx);
  if (data.contractKey !== undefined) return { contractKey: findContract(ctx, client, data.contractKey).contractKey };
  return { templateKey: findTemplate(ctx, client, data.templateKey!).templateKey };
}
import { isoTime } from '../core/time-format.js';
import { lazy } from '../core/lazy.js';

/** Insertion fields are strings in the spec; numbers are accepted and kept as strings. */
const dimension = lazy(() => z.union([z.string(), z.number()]).transform(String).optional());

const insertion = lazy(() => z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String).optional(),
  pageId: dimension(),
  width: dimension(),
  height: dimension(),
  positionX: dimension(),
  positionY: dimension(),
  action: z.string().optional(),
  clientKey: z.string().optional(),
}));

const specialTypeField = lazy(() => z
  .union([z.number(), z.string().regex(/^\d+$/, 'Must be 1, 2, 3 or 4').transform(Number)])
  .pipe(z.number().int().min(1, 'Must be 1, 2, 3 or 4').max(4, 'Must be 1, 2, 3 or 4')));

/** An item of `list` [D:placeholder/list], with the fields the components' type adds [C:types.ts]. */
function placeholderView(p: PlaceholderRecord, component: boolean) {
  return {
    id: p.id,
    createTime: isoTime(p.createTime),
    changeTime: isoTime(p.changeTime),
    name: p.name,
    value: p.value,
    placeholderKey: p.placeholderKey,
    position: p.position,
    type: p.type,
    fillingType: p.fillingType ?? '1',
    isTable: p.isTable ?? false,
    insertion: p.insertion,
    ...(component ? { isSpecial: p.isSpecial, specialType: p.specialType ?? null, externalRecipientKey: p.externalRecipientKey ?? p.recipientKey ?? null } : {}),
  };
}

/** `contractKey` or `templateKey`: the owner of the placeholders an operation names. */
const ownerKeys = lazy(() => ({ contractKey: optionalKeyField(), templateKey: optionalKeyField() }));

function exactlyOneOwner(data: { contractKey?: string | undefined; templateKey?: string | undefined }): boolean {
  return (data.contractKey === undefined) !== (data.templateKey === undefined);
}
const ONE_OWNER = { message: 'Give data.contractKey or data.templateKey (one of them)', path: ['contractKey'] };

export const placeholderResource: ResourceSpec = {
  path: '/api/placeholder',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the placeholders of a contract or template (special ones too with X-Sendforsign-Component: true)',
      scope: 'client',
      schema: () => z.object({
        data: z.object({ action: z.literal('list'), clientKey: clientKeyField(), ...ownerKeys() }).refine(exactlyOneOwner, ONE_OWNER),
      }),
      example: { data: { action: 'list', contractKey: '<CONTRACT_KEY>' } },
      handle(input, ctx, request) {
        const owner = ownerOf(ctx, input.data);
        // The special placeholders show only to the components' header [E], [C]; elsewhere it changes nothing.
        const component = request.header('x-sendforsign-component')?.trim().toLowerCase() === 'true';
        const placeholders = placeholdersOf(ctx, owner)
          .filter((p) => component || !p.isSpecial)
          .sort((a, b) => a.position - b.position || (a.specialType ?? 0) - (b.specialType ?? 0))
          .map((p) => placeholderView(p, component));
        return reply(200, 'Placeholders found', { placeholders });
      },
    }),
    create: defineAction({
      summary: 'Create a placeholder in a contract',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('create'),
        clientKey: clientKeyField(),
        contractKey: keyField(),
        placeholder: z.object({ name: z.string().min(1, 'Must not be empty'), value: z.string().optional() }),
      }),
      example: { data: { action: 'create', contractKey: '<CONTRACT_KEY>', placeholder: { name: 'price', value: '100 EUR' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const contract = findContract(ctx, client, input.data.contractKey);
        assertOpen(contract, 'take new placeholders');
        const p = addPlaceholder(ctx, { contractKey: contract.contractKey }, client, {
          name: input.data.placeholder.name,
          value: input.data.placeholder.value ?? '',
        });
        return reply(
          201,
          'Placeholder created',
          {
            placeholder: {
              id: p.id,
              createTime: isoTime(p.createTime),
              changeTime: isoTime(p.changeTime),
              name: p.name,
              value: p.value,
              type: p.type,
              placeholderKey: p.placeholderKey,
              position: String(p.position),
            },
          },
          { numericCode: true },
        );
      },
    }),
    update: defineAction({
      summary: 'Place special placeholders (insertions in a PDF contract)',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('update'),
        clientKey: clientKeyField(),
        contractKey: keyField(),
        placeholders: z
          .array(
            z.object({
              placeholderKey: keyField(),
              isSpecial: z.literal(true, 'Must be true: only special placeholders can be updated'),
              specialType: specialTypeField(),
              insertion: z.array(insertion()).max(1000).optional(),
            }),
          )
          .min(1, 'Give at least one placeholder')
          .max(1000),
      }),
      example: {
        data: {
          action: 'update',
          contractKey: '<CONTRACT_KEY>',
          placeholders: [
            {
              placeholderKey: '<RECIPIENT_KEY>_4',
              isSpecial: true,
              specialType: 4,
              insertion: [{ id: '1', pageId: '0', width: '120', height: '40', positionX: '300', positionY: '700' }],
            },
          ],
        },
      },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const contract = findContract(ctx, client, input.data.contractKey);
        assertOpen(contract, 'change placeholders');
        const last = placeSpecialPlaceholders(ctx, contract, input.data.placeholders, 'data.placeholders');
        return reply(
          201,
          'Placeholder updated',
          { placeholder: { createTime: isoTime(last.createTime), changeTime: isoTime(last.changeTime) } },
          { numericCode: true },
        );
      },
    }),
  },
};
