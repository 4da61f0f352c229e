/**
 * Turns zod issues into the service's error format: one sentence naming what is wrong, plus every failing
 * field with its path (`data.contract.name`).
 */
import type { z } from 'zod';
import { ApiError, type FieldError } from '../errors.js';

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

export function validationError(error: z.ZodError): ApiError {
  const errors = fieldErrors(error);
  const shown = errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join('; ');
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return ApiError.badRequest(`Invalid request: ${shown}${more}`, errors);
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value, { error: errorMessage });
  if (!result.success) throw validationError(result.error);
  return result.data;
}
