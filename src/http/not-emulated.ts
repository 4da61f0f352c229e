/**
 * The AI endpoints the sandbox does not emulate (resources/not-emulated.ts): each answers a JSON 501 that names it.
 * Every other method gets the one 405 (http/app.ts).
 */
import type { Hono } from 'hono';
import { ApiError } from '../core/errors.js';
import type { RequestEnv } from '../domain/request-facts.js';

import { NOT_EMULATED_PATHS } from '../resources/not-emulated.js';

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
