/** Recipient fields shared by contract create-and-send, recipient send and recipient update (interface §4.5). */
import { z } from 'zod';
import { keyField } from './action.js';
import { lazy } from '../core/lazy.js';

export const roleField = lazy(() => z.enum(['view', 'sign', 'approve', 'lock']));

const recipientFields = lazy(() => z.object({
  action: roleField().optional(),
  customMessage: z.string().optional(),
  fullname: z.string().optional(),
  email: z.email().optional(),
  position: z.number().int().min(0).max(1_000_000).optional(),
  clientKey: z.string().optional(),
}));

/** A send item: a new recipient, or an existing one (by recipientKey) whose fields change. */
export const recipientItem = lazy(() => recipientFields()
  .extend({ recipientKey: z.string().min(1).optional() })
  // The spec marks email required when sending; an item that names an existing recipient already has one.
  .refine((r) => r.recipientKey !== undefined || r.email !== undefined, { message: 'Required for a new recipient', path: ['email'] }));

/** `data.recipient` of update: the key, and only the fields to change. */
export const recipientUpdate = lazy(() => recipientFields().extend({ recipientKey: keyField() }));

export const recipientList = lazy(() => z.array(recipientItem()).max(500));

export type RecipientItem = z.infer<ReturnType<typeof recipientItem>>;
