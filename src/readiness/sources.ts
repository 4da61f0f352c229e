/**
 * Where the report's observations come from (docs/readiness.md): the request journal (only `/api` requests: the
 * integration's; control API calls and the pages never count), the webhook delivery log with the faults and
 * outages that shaped each attempt, and the webhooks registered now. A tenant's report reads only what was
 * attributed to it.
 */
import type { Services } from '../store/services.js';
import type { RequestJournal } from '../journal/journal.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { WEBHOOK_FLAGS } from '../core/vocabulary.js';
import type { AttemptShaping, DeliverySeen, Observed, RequestSeen } from './observed.js';

export interface ReadinessSources {
  services: Services;
  journal: RequestJournal;
  webhooks: WebhookDispatcher;
}

const UNSHAPED: readonly AttemptShaping[] = Object.freeze([]);

export async function observe(sources: ReadinessSources, platformId?: string): Promise<Observed> {
  // Only the integration's own traffic, the journal's `api` door (docs/readiness.md): control and page requests
  // (the recipient page's included, filed under its share link's tenant) never count.
  // The journal's own records, not copies: a full journal's 10,000 copies, alive while the report is built, made it
  // half again as slow, most of it in garbage collection (docs/benchmarks.md, "readiness report").
  const requests: readonly RequestSeen[] = await sources.journal.records(platformId, 'api');
  const deliveries: DeliverySeen[] = sources.webhooks.kept(platformId).map((d) => ({
    id: d.id,
    event: d.event,
    platformId: d.platformId,
    clientKey: d.clientKey,
    contractKey: d.contractKey,
    webhookKey: d.webhookKey,
    attempts: d.attempts.map((a) => ({
      at: a.at,
      // A delivery kept by a data file of an earlier version has no wall time: its sandbox time stands in.
      wall: a.wallAt ?? a.at,
      trigger: a.trigger,
      statusCode: a.statusCode,
      error: a.error,
      durationMs: a.durationMs,
      // Most attempts met no fault nor outage: they share one empty list.
      shaping:
        a.outageId === undefined && !a.faults?.length
          ? UNSHAPED
          : [...(a.outageId !== undefined ? (['outage'] as const) : []), ...(a.faults ?? []).map((f) => f.kind)],
    })),
  }));
  const webhooks = sources.services.store.webhooks
    .all()
    .filter((w) => platformId === undefined || w.platformId === platformId)
    .map((w) => ({
      platformId: w.platformId,
      clientKey: w.clientKey,
      webhookKey: w.webhookKey,
      subscribed: WEBHOOK_FLAGS.some((flag) => w[flag]),
    }));
  return { requests, deliveries, webhooks };
}
