/** One /__sandbox operation as the OpenAPI document shows it (control.ts lists them). */
import type { z } from 'zod';

export interface ControlOperation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI form, `{param}` for path parameters. */
  path: string;
  summary: string;
  description?: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** A request body that works. */
  example?: unknown;
  /** What a success looks like. */
  response?: { status: number; example: unknown };
  /** Answers an HTML page instead of JSON. */
  html?: true;
}
