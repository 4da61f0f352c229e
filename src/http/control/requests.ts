/** /__sandbox/requests: the request journal, filtered by query parameters. */
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import type { JournalFilter, RequestJournal } from '../../journal/journal.js';
import { parseWith } from '../../core/validation.js';
import { lazy } from '../../core/lazy.js';

export const journalQuery = lazy(() => z.object({
  path: z.string().optional().describe('Exact path, or a prefix ending in * (/api/*)'),
  method: z.string().optional(),
  action: z.string().optional().describe('data.action, data.type or the top-level action of the request'),
  status: z.string().optional().describe('A status (404) or a class (4xx)'),
  since: z.string().optional().describe('Sandbox time (ISO 8601), or an entry id: only later entries'),
  apiKey: z.string().optional().describe("Only this platform's requests"),
  limit: z.coerce.number().int().min(1).max(100_000).optional().describe('The newest N matches'),
}));

export function requestRoutes(journal: RequestJournal): Hono {
  const app = new Hono();
  app.get('/', (c) => {
    const filter = parseWith(journalQuery(), c.req.query()) as JournalFilter;
    const requests = journal.list(filter);
    return c.json({ requests, count: requests.length, capacity: journal.limit });
  });
  app.delete('/', (c) => {
    const apiKey = c.req.query('apiKey');
    if (apiKey === undefined) {
      journal.clear();
      return c.json({ cleared: 'all' });
    }
    const platformId = journal.platformIdOf(apiKey);
    if (!platformId) throw ApiError.notFound(`No platform with apiKey "${apiKey}"`);
    journal.clear(platformId);
    return c.json({ cleared: 'platform' });
  });
  return app;
}
