/**
 * POST /api/placeholder: list, create, update (ordinary fields, a table value, or special placements with their
 * insertions), delete.
 */
import { z } from 'zod';
import { type OpContext, requireClient } from '../domain/context.js';
import { assertOpen, findContract } from '../domain/contracts.js';
import { ApiError } from '../core/errors.js';
import {
  addPlaceholder,
  checkFiller,
  deletePlaceholder,
  findPlaceholder,
  placePlaceholders,
  placeholdersOf,
  updatePlaceholder,
} from '../domain/placeholders.js';
import { findTemplate } from '../domain/templates.js';
import { type ResourceSpec, clientKeyField, defineAction, keyField, optionalKeyField, reply } from './action.js';
import { keySchema, okSchema } from './response-shape.js';
import type { InsertionRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { VALUE_OR_TABLE, tableField, textValue, valueOrTable } from './placeholder-fields.js';
import {
  createdSchema,
  listItem,
  listItemSchema,
  tableAnswer,
  updatedSchema,
  updatedAnswer,
  writtenAnswer,
} from './placeholder-answers.js';

/** The contract or template the request names, of the caller's client (404 otherwise); a contract must be open. */
function ownerOf(
  ctx: OpContext,
  data: { contractKey?: string | undefined; templateKey?: string | undefined },
  what?: string,
) {
  const client = requireClient(ctx);
  if (data.contractKey !== undefined) {
    const contract = findContract(ctx, client, data.contractKey);
    if (what) assertOpen(contract, what);
    return { contractKey: contract.contractKey };
  }
  return { templateKey: findTemplate(ctx, client, data.templateKey!).templateKey };
}

/** `contractKey` or `templateKey`: the owner of the placeholders an operation names. */
const ownerKeys = () => ({ contractKey: optionalKeyField(), templateKey: optionalKeyField() });

function exactlyOneOwner(data: { contractKey?: string | undefined; templateKey?: string | undefined }): boolean {
  return (data.contractKey === undefined) !== (data.templateKey === undefined);
}
const ONE_OWNER = { message: 'Give data.contractKey or data.templateKey (one of them)', path: ['contractKey'] };

/** PlaceholderFill [C:enum.ts]: 1 none, 2 creator, 3 any, 4 a specific recipient; numbers or strings, kept as text. */
const fillingType = () =>
  z.union([z.enum(['1', '2', '3', '4']), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).transform(String);

/** PlaceholderType [C:enum.ts]: text or numeric forms, kept as '1' internal / '2' external. */
const placeholderType = () =>
  z
    .union([z.enum(['internal', 'external', '1', '2']), z.literal(1), z.literal(2)])
    .transform((t) => (t === 'external' || t === '2' || t === 2 ? ('2' as const) : ('1' as const)));

/**
 * An insertion item. The docs and the components send numbers; [E] reports that the live API silently ignores an
 * insertion unless its values are strings, its `id` starts at "1", and it carries `action` and `clientKey`. The
 * sandbox accepts all of these (values kept as strings) and warns (docs/compatibility.md).
 */
const dimension = () => z.union([z.string(), z.number()]).optional();

const insertion = () =>
  z
    .object({
      id: z.union([z.string().min(1), z.number()]).optional(),
      pageId: dimension(),
      width: dimension(),
      height: dimension(),
      positionX: dimension(),
      positionY: dimension(),
      action: z.string().optional(),
      clientKey: z.string().optional(),
    })
    .transform((raw) => {
      const warnings: string[] = [];
      const numbers = Object.entries(raw)
        .filter(([k, v]) => typeof v === 'number' && k !== 'action')
        .map(([k]) => k);
      if (numbers.length)
        warnings.push(
          `insertion ${numbers.join(', ')} sent as numbers: the live service is reported to ignore insertions whose values are not strings`,
        );
      if (raw.id !== undefined && Number(raw.id) === 0)
        warnings.push(
          'insertion id 0: the live service is reported to ignore insertions whose ids do not start at "1"',
        );
      if (raw.action === undefined || raw.clientKey === undefined) {
        warnings.push('insertion without action or clientKey: the live service is reported to ignore such insertions');
      }
      const fields: Partial<InsertionRecord> = {};
      for (const [k, v] of Object.entries(raw)) if (v !== undefined) (fields as Record<string, string>)[k] = String(v);
      return { fields, warnings };
    });

const specialTypeField = () =>
  z
    .union([z.number(), z.string().regex(/^\d+$/, 'Must be 1, 2, 3 or 4').transform(Number)])
    .pipe(z.number().int().min(1, 'Must be 1, 2, 3 or 4').max(4, 'Must be 1, 2, 3 or 4'));

/** `data.placeholder` of the ordinary and table update. */
const placeholderChange = () =>
  z
    .object({
      placeholderKey: keyField(),
      name: z.string().min(1, 'Must not be empty').optional(),
      value: textValue().optional(),
      fillingType: fillingType().optional(),
      externalRecipientKey: z.string().nullable().optional(),
      table: tableField().optional(),
    })
    .refine(valueOrTable, VALUE_OR_TABLE);

/**
 * `data.placeholders[]` of a placement update: a recipient's special placeholder with `isSpecial: true` and its
 * `specialType` [D:placeholder/pdfspecial], or an ordinary placeholder without them [D:placeholder/pdfbasic].
 */
const placements = () =>
  z
    .array(
      z
        .object({
          placeholderKey: keyField(),
          isSpecial: z.boolean().optional(),
          specialType: specialTypeField().optional(),
          insertion: z.array(insertion()).max(1000).optional(),
        })
        .refine((p) => p.isSpecial !== true || p.specialType !== undefined, {
          message: 'Required for a special placeholder (1, 2, 3 or 4)',
          path: ['specialType'],
        })
        .refine((p) => p.isSpecial === true || p.specialType === undefined, {
          message: 'Only a special placeholder (isSpecial: true) takes a specialType',
          path: ['specialType'],
        }),
    )
    .min(1, 'Give at least one placeholder')
    .max(1000);

export const placeholderResource = {
  path: '/api/placeholder',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the placeholders of a contract or template (special ones too with X-Sendforsign-Component: true)',
      scope: 'client',
      response: () => okSchema(200, { placeholders: z.array(listItemSchema()) }),
      schema: () =>
        z.object({
          // The docs' own example names both keys; the contract's placeholders answer then (ownerOf).
          data: z
            .object({ action: z.literal('list'), clientKey: clientKeyField(), ...ownerKeys() })
            .refine((d) => d.contractKey !== undefined || d.templateKey !== undefined, ONE_OWNER),
        }),
      example: { data: { action: 'list', contractKey: '<CONTRACT_KEY>' } },
      handle(input, ctx, request) {
        const owner = ownerOf(ctx, input.data);
        // The special placeholders show only to the components' header [E], [C]; elsewhere it changes nothing.
        const component = request.header('x-sendforsign-component')?.trim().toLowerCase() === 'true';
        const placeholders = placeholdersOf(ctx, owner)
          .filter((p) => component || !p.isSpecial)
          .sort((a, b) => a.position - b.position || (a.specialType ?? 0) - (b.specialType ?? 0))
          .map((p) => listItem(ctx, p, component));
        return reply(200, 'Placeholders found', { placeholders });
      },
    }),
    create: defineAction({
      summary: 'Create a placeholder in a contract or template',
      scope: 'client',
      response: createdSchema,
      schema: () =>
        z.object({
          data: z
            .object({
              action: z.literal('create'),
              clientKey: clientKeyField(),
              ...ownerKeys(),
              placeholder: z.object({
                name: z.string().min(1, 'Must not be empty'),
                value: textValue().optional(),
                type: placeholderType().optional(),
                fillingType: fillingType().optional(),
                externalRecipientKey: optionalKeyField(),
              }),
            })
            .refine(exactlyOneOwner, ONE_OWNER),
        }),
      example: {
        data: { action: 'create', contractKey: '<CONTRACT_KEY>', placeholder: { name: 'price', value: '100 EUR' } },
      },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const owner = ownerOf(ctx, input.data, 'take new placeholders');
        const { name, value, type, fillingType: filling, externalRecipientKey } = input.data.placeholder;
        if (externalRecipientKey !== undefined) checkFiller(ctx, owner, externalRecipientKey);
        const p = addPlaceholder(ctx, owner, client, {
          name,
          value: value ?? '',
          ...(type ? { type } : {}),
          fillingType: filling,
          externalRecipientKey,
        });
        return reply(
          201,
          'Placeholder created',
          { placeholder: writtenAnswer(p, String(p.position)) },
          { numericCode: true },
        );
      },
    }),
    update: defineAction({
      summary:
        'Change a placeholder (name, value, filler, or a table value), or place special placeholders (insertions)',
      scope: 'client',
      response: updatedSchema,
      schema: () =>
        z.object({
          data: z
            .object({
              action: z.literal('update'),
              clientKey: clientKeyField(),
              ...ownerKeys(),
              placeholder: placeholderChange().optional(),
              placeholders: placements().optional(),
            })
            .refine(exactlyOneOwner, ONE_OWNER)
            .refine((d) => (d.placeholder === undefined) !== (d.placeholders === undefined), {
              message:
                "Give data.placeholder (one placeholder's fields) or data.placeholders (placements), one of them",
              path: ['placeholder'],
            }),
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
              insertion: [
                {
                  id: '1',
                  pageId: '0',
                  width: '120',
                  height: '40',
                  positionX: '300',
                  positionY: '700',
                  action: 'update',
                  clientKey: '<CLIENT_KEY>',
                },
              ],
            },
          ],
        },
      },
      handle(input, ctx) {
        const owner = ownerOf(ctx, input.data, 'change placeholders');
        const change = input.data.placeholder;
        if (change) {
          const { placeholderKey, ...fields } = change;
          const p = updatePlaceholder(ctx, findPlaceholder(ctx, owner, placeholderKey), fields);
          // The table update answers code 201 as a number, the ordinary one as a string, as the docs show each.
          return fields.table !== undefined
            ? reply(201, 'Placeholder updated', { placeholder: tableAnswer(p) }, { numericCode: true })
            : reply(201, 'Placeholder updated', { placeholder: updatedAnswer(p) });
        }
        if (owner.contractKey === undefined) {
          throw ApiError.badRequest('Placements belong to a contract; give data.contractKey', [
            { path: 'data.templateKey', message: 'Placements need a contract' },
          ]);
        }
        const items = input.data.placeholders!;
        const warnings = [...new Set(items.flatMap((item) => (item.insertion ?? []).flatMap((x) => x.warnings)))];
        const contract = ctx.store.contracts.get(owner.contractKey)!;
        const last = placePlaceholders(
          ctx,
          contract,
          items.map((item) => ({ ...item, insertion: item.insertion?.map((x) => x.fields) })),
          'data.placeholders',
        );
        return {
          ...reply(
            201,
            'Placeholder updated',
            { placeholder: { createTime: isoTime(last.createTime), changeTime: isoTime(last.changeTime) } },
            { numericCode: true },
          ),
          warnings,
        };
      },
    }),
    delete: defineAction({
      summary: 'Delete an ordinary placeholder of a contract or template',
      scope: 'client',
      response: () => okSchema(201, { placeholder: z.strictObject({ placeholderKey: keySchema() }) }),
      schema: () =>
        z.object({
          data: z
            .object({
              action: z.literal('delete'),
              clientKey: clientKeyField(),
              ...ownerKeys(),
              placeholder: z.object({ placeholderKey: keyField() }),
            })
            .refine(exactlyOneOwner, ONE_OWNER),
        }),
      example: {
        data: { action: 'delete', contractKey: '<CONTRACT_KEY>', placeholder: { placeholderKey: '<PLACEHOLDER_KEY>' } },
      },
      handle(input, ctx) {
        const owner = ownerOf(ctx, input.data, 'change placeholders');
        const p = findPlaceholder(ctx, owner, input.data.placeholder.placeholderKey);
        deletePlaceholder(ctx, p);
        // No source shows this answer; it follows the documented writes (docs/compatibility.md).
        return reply(201, 'Placeholder deleted', { placeholder: { placeholderKey: p.placeholderKey } });
      },
    }),
  },
} satisfies ResourceSpec;
