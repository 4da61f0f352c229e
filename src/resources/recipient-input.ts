/** The recipient item shared by contract create-and-send and recipient send (interface §4.5). */
import { z } from 'zod';

export const roleField = z.enum(['view', 'sign', 'approve', 'lock']);

export const recipientItem = z
  .object({
    recipientKey: z.string().min(1).optional(),
    action: roleField.optional(),
    customMessage: z.string().optional(),
    fullname: z.string().optional(),
    email: z.email().optional(),
    position: z.number().int().min(0).max(1_000_000).optional(),
    clientKey: z.string().optional(),
  })
  // The spec marks email required when sending; an item that names an existing recipient already has one.
  .refine((r) => r.recipientKey !== undefined || r.email !== undefined, { message: 'Required for a new recipient', path: ['email'] });

export const recipientList = z.array(recipientItem).max(500);

export type RecipientItem = z.infer<typeof recipientItem>;
