/**
 * The answers of POST /api/placeholder, each answer beside the schema of what it builds (OpenAPI's response schemas,
 * closed: the response test fails on a field the answer sends and the schema lacks).
 */
import { z } from 'zod';
import type { OpContext } from '../domain/context.js';
import { placeholderColour, placeholderBoxCode } from '../domain/placeholders.js';
import type { PlaceholderRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { insertionSchema, isoSchema, keySchema, okSchema } from './response-shape.js';

/**
 * An item of `list`, with the fields the components read: `id` a numeric string, as the service's own list example
 * and the seed show it (`"1"`: the N of the components' `<placeholderN>` tags, which they build as text), `view` and
 * `color` (docs/compatibility.md, "Placeholder" and "Parity").
 */
export function listItem(ctx: OpContext, p: PlaceholderRecord, component: boolean) {
  return {
    id: String(p.id),
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
    view: placeholderBoxCode(p),
    color: placeholderColour(ctx, p),
    ...(component
      ? {
          isSpecial: p.isSpecial,
          specialType: p.specialType ?? null,
          externalRecipientKey: p.externalRecipientKey ?? p.recipientKey ?? null,
        }
      : {}),
  };
}

/** A placeholder as create and the ordinary update answer it; only `position` differs between the two. */
export function writtenAnswer(p: PlaceholderRecord, position: string | null) {
  return {
    id: p.id,
    createTime: isoTime(p.createTime),
    changeTime: isoTime(p.changeTime),
    name: p.name,
    value: p.value,
    type: p.type,
    placeholderKey: p.placeholderKey,
    position,
  };
}

/** The ordinary `update` answer [D:placeholder/update]: position null, as the docs show. */
export function updatedAnswer(p: PlaceholderRecord) {
  return writtenAnswer(p, null);
}

/** The table `update` answer [D:placeholder/update-table]. */
export function tableAnswer(p: PlaceholderRecord) {
  return {
    ...updatedAnswer(p),
    isTable: true,
    position: String(p.position),
    fillingType: p.fillingType ?? '1',
    externalRecipientKey: p.externalRecipientKey ?? null,
  };
}

const writtenAnswerSchema = () => ({
  id: z.string(),
  createTime: isoSchema(),
  changeTime: isoSchema(),
  name: z.string(),
  value: z.string(),
  type: z.string(),
  placeholderKey: keySchema(),
});

/** An item of `list` (listItem). */
export const listItemSchema = () =>
  z.strictObject({
    ...writtenAnswerSchema(),
    id: z.string().meta({ description: 'A numeric string, the N of the `<placeholderN>` tags: `"1"`' }),
    position: z.number().int(),
    view: z.union([z.literal(1), z.literal(2)]).meta({ description: '2 a signature field, 1 any other' }),
    color: z.string(),
    fillingType: z.string(),
    isTable: z.boolean(),
    insertion: z.array(insertionSchema()),
    isSpecial: z.boolean().optional(),
    specialType: z.number().int().nullable().optional(),
    externalRecipientKey: z.string().nullable().optional(),
  });

/** What create answers (writtenAnswer with its position). */
export const createdSchema = () =>
  okSchema(201, { placeholder: z.strictObject({ ...writtenAnswerSchema(), position: z.string() }) }, true);

/** What update answers: the ordinary change (updatedAnswer), a table (tableAnswer), or placements. */
export const updatedSchema = () =>
  z.union([
    okSchema(201, { placeholder: z.strictObject({ ...writtenAnswerSchema(), position: z.null() }) }),
    okSchema(
      201,
      {
        placeholder: z.strictObject({
          ...writtenAnswerSchema(),
          isTable: z.literal(true),
          position: z.string(),
          fillingType: z.string(),
          externalRecipientKey: z.string().nullable(),
        }),
      },
      true,
    ),
    okSchema(201, { placeholder: z.strictObject({ createTime: isoSchema(), changeTime: isoSchema() }) }, true),
  ]);
