/** POST /__sandbox/recipients/{recipientKey}/{view|sign|approve|lock}: act as a recipient (decisions §6, §10). */
import { Hono } from 'hono';
import { z } from 'zod';
import { type OpContext, type Services, systemContext } from '../../domain/context.js';
import { actAsRecipient } from '../../domain/lifecycle.js';
import { VERBS, type Verb } from '../../domain/lifecycle-rules.js';
import { ApiError } from '../../core/errors.js';
import { inspectRecipient } from './contracts.js';
import { controlBody } from './body.js';
import { lazy } from '../../core/lazy.js';

export const actBody = lazy(() => z.object({
  signature: z.string('A text signature, or an image as a base64 data URI').max(2_000_000, 'At most 2,000,000 characters').optional(),
}));

export function recipientRoutes(services: Services, maxBodyBytes: number, baseUrl: () => string): Hono {
  const app = new Hono();
  app.post('/:recipientKey/:verb', async (c) => {
    const verb = c.req.param('verb');
    if (!(VERBS as readonly string[]).includes(verb)) {
      throw ApiError.badRequest(`Unknown verb "${verb}"; a recipient can ${VERBS.join(', ')}`);
    }
    const { signature } = await controlBody(c, actBody(), maxBodyBytes);
    const ctx: OpContext = systemContext(services, 'control');
    const recipient = actAsRecipient(ctx, c.req.param('recipientKey'), verb as Verb, { signature });
    const contract = services.store.contracts.get(recipient.contractKey)!;
    return c.json({ recipient: inspectRecipient(recipient, baseUrl()), contract: { contractKey: contract.contractKey, status: contract.status } });
  });
  return app;
}
