/**
 * The report's options (docs/readiness.md, "Thresholds"): each check's bound, and checks to leave out. One flat
 * object, so the same names work as query parameters (`GET /__sandbox/report?pollingReads=5`), library options
 * (`sandbox.report({pollingReads: 5})`) and CLI flags (`esign-sandbox report --threshold pollingReads=5`).
 */
import { z } from 'zod';
import { parseDuration } from '../core/duration.js';
import { DURATION_PATTERN } from '../core/schemas.js';
import { lazy } from '../core/lazy.js';

/** The defaults, as written in docs/readiness.md. */
export const DEFAULT_THRESHOLDS = {
  /** polling: this many reads of one thing with no delivery about it between them… */
  pollingReads: 10,
  /** …within this much wall time. */
  pollingWindow: '1m',
  /** ignores-retry-after: how much sooner than Retry-After a retry may come (timer granularity). */
  retryAfterGrace: '100ms',
  /** token-per-request: judged once this many requests carried a token… */
  tokenMinRequests: 10,
  /** …when more tokens were made than this share of them. */
  tokenRatio: 0.5,
  /** slow-webhook-receiver: an answer slower than this (half the sandbox's 10 s delivery time-out). */
  slowWebhook: '5s',
  /** client-errors: at least this many unexplained 4xx answers… */
  clientErrorMin: 3,
  /** …making up more than this share of the requests. */
  clientErrorRatio: 0.1,
  /** At most this many evidence items per finding (its `count` says how many there were). */
  evidence: 10,
} as const;

/** A duration: a number of seconds or text like "90s", "1m", "500ms" (a query parameter's "60" is seconds). */
const span = () =>
  z
    .union([
      z.number().min(0),
      z
        .string()
        .regex(/^\d+(\.\d+)?$/)
        .transform(Number),
      z.string().regex(DURATION_PATTERN, 'expected a duration like "500ms", "5s" or "1m", or a number of seconds'),
    ])
    .transform((value) => parseDuration(value)!);
const count = () => z.coerce.number().int().min(1);
const share = () => z.coerce.number().min(0).max(1);
/** A threshold's option: optional, its default said in its description. */
const withDefault = <T extends z.ZodType>(name: keyof typeof DEFAULT_THRESHOLDS, schema: T) =>
  schema.optional().meta({ description: `default ${DEFAULT_THRESHOLDS[name]}` });

/** What a report call takes: every threshold optional, and `ignore` (check ids, a list or comma-separated). */
export const reportOptions = lazy(() =>
  z
    .strictObject({
      pollingReads: withDefault('pollingReads', count()),
      pollingWindow: withDefault('pollingWindow', span()),
      retryAfterGrace: withDefault('retryAfterGrace', span()),
      tokenMinRequests: withDefault('tokenMinRequests', count()),
      tokenRatio: withDefault('tokenRatio', share()),
      slowWebhook: withDefault('slowWebhook', span()),
      clientErrorMin: withDefault('clientErrorMin', count()),
      clientErrorRatio: withDefault('clientErrorRatio', share()),
      evidence: withDefault('evidence', count()),
      ignore: z
        .union([z.array(z.string().min(1)), z.string().transform((s) => s.split(',').filter((id) => id !== ''))])
        .optional()
        .meta({ description: 'Check ids to leave out, e.g. "polling,token-per-request".' }),
    })
    .meta({ description: 'Thresholds of the checks (docs/readiness.md) and checks to leave out.' }),
);

export type ReportOptionsInput = z.input<ReturnType<typeof reportOptions>>;

/** The thresholds a report runs with, durations in milliseconds. */
export interface Thresholds {
  pollingReads: number;
  pollingWindowMs: number;
  retryAfterGraceMs: number;
  tokenMinRequests: number;
  tokenRatio: number;
  slowWebhookMs: number;
  clientErrorMin: number;
  clientErrorRatio: number;
  evidence: number;
}

/** The options read (already validated by `reportOptions`), defaults filled in. */
export function thresholdsOf(options: z.output<ReturnType<typeof reportOptions>>): Thresholds {
  const d = DEFAULT_THRESHOLDS;
  return {
    pollingReads: options.pollingReads ?? d.pollingReads,
    pollingWindowMs: options.pollingWindow ?? parseDuration(d.pollingWindow)!,
    retryAfterGraceMs: options.retryAfterGrace ?? parseDuration(d.retryAfterGrace)!,
    tokenMinRequests: options.tokenMinRequests ?? d.tokenMinRequests,
    tokenRatio: options.tokenRatio ?? d.tokenRatio,
    slowWebhookMs: options.slowWebhook ?? parseDuration(d.slowWebhook)!,
    clientErrorMin: options.clientErrorMin ?? d.clientErrorMin,
    clientErrorRatio: options.clientErrorRatio ?? d.clientErrorRatio,
    evidence: options.evidence ?? d.evidence,
  };
}
