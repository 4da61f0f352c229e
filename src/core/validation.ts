/**
 * Turns zod issues into the service's error format: one sentence naming what is wrong, plus every failing
 * field with its path (`data.contract.name`).
 */
import type { z } from 'zod';
import { ApiError, type FieldError } from './errors.js';

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(body)',
    message: issue.message,
  }));
}

/** Per-parse error messages: say "Required" for a missing field rather than "expected string, received undefined". */
export function errorMessage(issue: { code: string; input?: unknown; expected?: unknown }): string | undefined {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'Required';
  return undefined;
}

/**
 * Field errors listed in one answer. Every failing field is listed up to this many; beyond it (a body of
 * 1000 placeholders with 1000 bad insertions each fails a million times) the message gives the count instead
 * of answering with megabytes of errors.
 */
export const MAX_FIELD_ERRORS = 100;

export function validationError(error: z.ZodError): ApiError {
  const errors = fieldErrors(error);
  const shown = errors
    .slice(0, 3)
    .map((e) => `${e.path}: ${e.message}`)
    .join('; ');
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  const listed =
    errors.length > MAX_FIELD_ERRORS ? `; the first ${MAX_FIELD_ERRORS} of ${errors.length} are listed` : '';
  return ApiError.badRequest(`Invalid request: ${shown}${more}${listed}`, errors.slice(0, MAX_FIELD_ERRORS));
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value, { error: errorMessage });
  if (!result.success) throw validationError(result.error);
  return result.data;
}
