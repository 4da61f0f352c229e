/**
 * The pieces of the success bodies' schemas (OpenAPI's response schemas), which each resource writes beside the
 * view that builds its answer. Objects are closed (`z.strictObject`): a field the sandbox sends that is not described
 * fails the response validation test (test/openapi), so a view and its schema cannot drift apart. Fields the handlers
 * send only sometimes are optional.
 */
import { z } from 'zod';
import { recordSchemas } from '../store/records.js';

export const isoSchema = () =>
  z.string().meta({ description: 'ISO 8601 time with milliseconds, UTC', examples: ['2026-03-01T09:00:00.000Z'] });

export const sqlSchema = () =>
  z.string().meta({ description: '`YYYY-MM-DD HH:MM:SS`, UTC', examples: ['2026-03-01 09:00:00'] });

export const keySchema = () => z.string().meta({ description: 'An opaque key of letters and digits' });

/**
 * `{...fields, code: "<status>", message}` as `reply` builds it; `numeric` where the code is sent as a number. Typed
 * to the letter (the fields' shape, the code's literal): the package's answer types are inferred from it.
 */
export function okSchema<
  S extends 200 | 201,
  F extends z.ZodRawShape = Record<never, never>,
  N extends boolean = false,
>(status: S, fields?: F, numeric?: N) {
  const code = numeric ? z.literal(status) : z.literal(String(status) as `${S}`);
  return z.strictObject({
    ...(fields ?? ({} as F)),
    code: code as z.ZodLiteral<N extends true ? S : `${S}`>,
    message: z.string(),
  });
}

/** `{result: true}`: the answer of operations that return nothing else. */
export const resultSchema = () => okSchema(200, { result: z.literal(true) });

/** A placement of a placeholder: answered as the store keeps it, closed. */
export const insertionSchema = () => z.strictObject(recordSchemas().insertion.shape);

/** A signature as the owner's and the recipient's signature lists give it (domain/recipient-reads.ts signatureItem). */
export const signatureSchema = () =>
  z.strictObject({
    shareLink: keySchema().meta({ description: "The signer's share link (its recipient key)" }),
    base64: z.string().meta({ description: 'The signature image as a data URL' }),
    createTime: isoSchema(),
    fullName: z.string(),
    email: z.string(),
  });

/** Who acted, as a sign or approve answers it: the name and email given, and when. */
export const actedSchema = () => ({ fullName: z.string(), email: z.string(), createTime: isoSchema() });
