/**
 * The real service's AI endpoints, which the vendor's AiAssistant calls (`context`, `context_files`, `chat`): the
 * sandbox does not emulate a language model, so each answers a JSON 501 that names it (docs/compatibility.md,
 * "AI endpoints"). Every other method gets the one 405 (http/app.ts).
 */
import type { Hono } from 'hono';
import { ApiError } from '../core/errors.js';
import type { RequestEnv } from '../domain/request-facts.js';

export const NOT_EMULATED_PATHS = ['/api/context', '/api/context_files', '/api/chat'];

export function mountNotEmulated(app: Hono<RequestEnv>): void {
  for (const path of NOT_EMULATED_PATHS) {
    app.post(path, () => {
      throw new ApiError(
        501,
        `${path} (the AI assistant's ${path.slice(5)}) is not emulated by the sandbox: it answers no AI requests; point the AI assistant at the real service`,
      );
    });
  }
}
