/**
 * Go-live readiness (docs/readiness.md): the report (JSON, or as JUnit XML or Markdown with `?format=`), settle()
 * (wait until nothing is due now), and rate limits like a test mode. Each also scoped to one tenant.
 */
import { z } from 'zod';
import { rateLimitBody } from '../control/rate-limits.js';
import { ApiError, quote } from '../core/errors.js';
import { toJUnit, toMarkdown } from '../readiness/formats.js';
import { reportOptions } from '../readiness/thresholds.js';
import { NOW, clockState } from './examples.js';
import { type ControlTable, TextAnswer, reshaped } from './operation.js';
import type { ReadinessReport } from '../readiness/report.js';

const FORMATS = ['json', 'junit', 'markdown'] as const;

const reportQuery = () =>
  reportOptions().extend({
    format: z.enum(FORMATS).optional().meta({
      description: 'json (default), junit (JUnit XML: a test case per check) or markdown (a CI step summary)',
    }),
  });

const reportExample = {
  verdict: 'not-ready',
  at: NOW,
  observed: { requests: 42, deliveries: 6, journalCapacity: 1000 },
  summary: { errors: 1, warnings: 0, infos: 0 },
  findings: [
    {
      id: 'accepts-forged-webhook',
      severity: 'error',
      title: 'Accepts webhooks with a bad signature',
      count: 1,
      evidence: [
        {
          type: 'delivery',
          id: 'dlv_1a2b3c',
          event: 'contract.sent',
          attempt: 1,
          trigger: 'first',
          status: 200,
          at: NOW,
          detail: 'answered 200 to a delivery signed with a bad signature',
        },
      ],
      advice: 'Verify webhook-signature with the webhook’s secret over the raw body before anything else.',
    },
  ],
  checks: [],
  coverage: {
    operations: [{ method: 'POST', path: '/api/contract', action: 'create', count: 3 }],
    errors: [],
    events: [],
  },
};

export const readinessOps = {
  report: {
    tool: 'report',
    route: 'GET /report',
    summary: 'The go-live readiness report: a verdict, findings with evidence, coverage (scoped: the tenant’s traffic)',
    description:
      'Computed from the /api requests of the journal, the webhook deliveries and the faults the sandbox applied (docs/readiness.md). `not-ready` exactly when a finding is an error. Thresholds are query parameters (`pollingReads=5`, `slowWebhook=2s`), `ignore=polling,client-errors` leaves checks out, and `format=junit` or `format=markdown` answers the same report as JUnit XML or Markdown.',
    query: reportQuery,
    answer: reportExample,
    request: (options = {}) => ({ query: { ...options } }),
    ...reshaped(
      async (r, { control, tenant }): Promise<ReadinessReport | TextAnswer> => {
        const { format, ...options } = r.query;
        if (format !== undefined && !FORMATS.includes(format as (typeof FORMATS)[number]))
          throw ApiError.badRequest(`format must be json, junit or markdown (got ${quote(format)})`, [
            { path: 'format', message: 'Not a format' },
          ]);
        const report = await control.readiness.report(options, tenant);
        if (format === 'junit') return new TextAnswer(toJUnit(report), 'application/xml; charset=utf-8');
        if (format === 'markdown') return new TextAnswer(toMarkdown(report), 'text/markdown; charset=utf-8');
        return report;
      },
      // A library or client call sends no `format` (ReportOptions has none): its answer is the JSON report.
      (answer) => answer as ReadinessReport,
    ),
  },
  settle: {
    tool: 'settle',
    route: 'POST /settle',
    summary:
      'Wait until nothing is due now: timers due at this instant run, webhook attempts and reactions in flight finish; time does not move',
    description:
      'Use it instead of advancing the clock by 0 after an act, before asserting on deliveries or emails (docs/library.md, "settle"). Scoped: the tenant’s clock only; unscoped: the sandbox clock and every tenant’s own.',
    answer: clockState,
    handle: (_r, { control, tenant }) => control.clock.settle(tenant),
  },
  'rateLimit.get': {
    tool: 'rate_limit',
    route: 'GET /rate-limit',
    summary: 'The rate limit that applies (scoped: the tenant’s own, else the sandbox’s)',
    answer: { rateLimit: '10/min', source: 'options', scope: 'sandbox' },
    handle: (_r, { control, tenant }) => control.rateLimits.get(tenant),
  },
  'rateLimit.set': {
    tool: 'set_rate_limit',
    route: 'PUT /rate-limit',
    summary: 'Set a quota like a test mode per API key, e.g. "10/min" (scoped: for the tenant); null turns it off',
    body: rateLimitBody,
    example: { rateLimit: '10/min' },
    answer: { rateLimit: '10/min', source: 'control', scope: 'tenant' },
    request: (rateLimit) => ({ body: { rateLimit } }),
    handle: (r, { control, tenant }) => control.rateLimits.set(r.body, tenant),
  },
} satisfies Partial<ControlTable>;
