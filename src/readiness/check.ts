/**
 * How a readiness check is declared (docs/readiness.md): a stable id, a severity, a title, advice, and a function
 * over what the sandbox observed that answers how often the defect happened and the requests or deliveries that
 * show it. The table of checks is in checks.ts; the report (report.ts) runs them and turns outcomes into findings.
 */
import { isoTime } from '../core/time-format.js';
import type { Coverage } from './coverage.js';
import type { AttemptSeen, DeliverySeen, Observed, RequestSeen } from './observed.js';
import type { Thresholds } from './thresholds.js';

export type Severity = 'error' | 'warning' | 'info';

/** A request of the journal that shows a finding: find it with GET /__sandbox/requests (its id). */
export interface RequestEvidence {
  type: 'request';
  /** The journal entry's id. */
  id: number;
  method: string;
  path: string;
  action?: string;
  status: number;
  /** Sandbox time it arrived. */
  at: string;
  detail?: string;
}

/** An attempt of a webhook delivery that shows a finding: find it with GET /__sandbox/webhook-deliveries/{id}. */
export interface DeliveryEvidence {
  type: 'delivery';
  /** The delivery's id. */
  id: string;
  event: string;
  /** Which attempt, counting from 1. */
  attempt: number;
  trigger: AttemptSeen['trigger'];
  /** The receiver's answer, when it gave one. */
  status?: number;
  error?: string;
  /** Sandbox time of the attempt. */
  at: string;
  detail?: string;
}

export type Evidence = RequestEvidence | DeliveryEvidence;

/** What a check found: how many times, and the evidence in order (the report keeps the first few). */
export interface Outcome {
  count: number;
  evidence: Evidence[];
}

/** What every check reads: the observations, plus the indexes several checks share (built once). */
export interface Indexed extends Observed {
  /** The requests in the order they arrived. */
  byArrival: RequestSeen[];
  /** Tenants with a webhook subscribed to at least one event. */
  tenantsWithWebhooks: Set<string>;
  /** The report's coverage: the `untested-…` checks read the errors met in it rather than each request again. */
  coverage: Coverage;
}

export interface Check {
  id: string;
  severity: Severity;
  title: string;
  /** What the check looks for, in one sentence (the JUnit test case and docs/readiness.md say it). */
  looksFor: string;
  /** What to do about a finding. */
  advice: string;
  /** Nothing to report: undefined. A long check answers a promise and gives back the event loop between its passes. */
  run(observed: Indexed, thresholds: Thresholds): Outcome | undefined | Promise<Outcome | undefined>;
}

export function requestEvidence(r: RequestSeen, detail?: string): RequestEvidence {
  return {
    type: 'request',
    id: r.id,
    method: r.method,
    path: r.path,
    ...(r.action !== undefined ? { action: r.action } : {}),
    status: r.status,
    at: isoTime(r.at),
    ...(detail !== undefined ? { detail } : {}),
  };
}

export function deliveryEvidence(d: DeliverySeen, attempt: AttemptSeen, detail?: string): DeliveryEvidence {
  return {
    type: 'delivery',
    id: d.id,
    event: d.event,
    attempt: d.attempts.indexOf(attempt) + 1,
    trigger: attempt.trigger,
    ...(attempt.statusCode !== undefined ? { status: attempt.statusCode } : {}),
    ...(attempt.error !== undefined ? { error: attempt.error } : {}),
    at: isoTime(attempt.at),
    ...(detail !== undefined ? { detail } : {}),
  };
}

/**
 * What a check finds as it goes: how many times, and the first `keep` evidence items (the report shows no more), so
 * a defect met thousands of times in a full journal makes a handful of evidence items, not thousands.
 */
export class Tally {
  count = 0;
  readonly evidence: Evidence[] = [];
  constructor(private readonly keep: number) {}

  /** It happened `times` more times; `show` makes the evidence, called only while more is kept. */
  add(show: () => Evidence[], times = 1): void {
    this.count += times;
    if (this.evidence.length < this.keep) this.evidence.push(...show());
  }

  outcome(): Outcome | undefined {
    return outcome(this.count, this.evidence);
  }
}

/** An outcome, or nothing when the check found nothing. */
export function outcome(count: number, evidence: Evidence[]): Outcome | undefined {
  return count > 0 ? { count, evidence } : undefined;
}

/** Seconds with up to one decimal, for details: "0.2 s". */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
