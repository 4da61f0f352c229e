/** Recipient fields shared by contract create-and-send, recipient send and recipient update (docs/compatibility.md). */
import { z } from 'zod';
import { RECIPIENT_ROLES } from '../core/vocabulary.js';
import { keyField, optionalKeyField } from './action.js';

export const roleField = () => z.enum(RECIPIENT_ROLES);

const recipientFields = () =>
  z.object({
    action: roleField().optional(),
    customMessage: z.string().optional(),
    fullname: z.string().optional(),
    email: z.email().optional(),
    // The list answers `position` as a string ("1") and the components post it back as received
    // (docs/compatibility.md, "Recipient"): a number or a numeric string.
    position: z
      .union([z.number(), z.string().regex(/^\s*\d+\s*$/, 'Must be a whole number')])
      .transform(Number)
      .pipe(z.number().int().min(0).max(1_000_000))
      .optional(),
    clientKey: z.string().optional(),
    // RecipientType [C:enum.ts]: '1' internal, '2' external, or the text forms; stored as text.
    type: z
      .union([z.enum(['internal', 'external', '1', '2']), z.literal(1), z.literal(2)])
      .transform((t) => (t === 'internal' || t === '1' || t === 1 ? ('internal' as const) : ('external' as const)))
      .optional(),
    // The components send `id` (0 for a new recipient); the sandbox numbers recipients itself and ignores it.
    id: z.union([z.number(), z.string()]).optional(),
  });

/** A send item: a new recipient, or an existing one (by recipientKey) whose fields change. */
export const recipientItem = () =>
  recipientFields()
    .extend({ recipientKey: optionalKeyField() })
    // The spec marks email required when sending; an item that names an existing recipient already has one.
    .refine((r) => r.recipientKey !== undefined || r.email !== undefined, {
      message: 'Required for a new recipient',
      path: ['email'],
    });

/** `data.recipient` of update: the key, and only the fields to change. */
export const recipientUpdate = () => recipientFields().extend({ recipientKey: keyField() });

export const recipientList = () => z.array(recipientItem()).max(500);
