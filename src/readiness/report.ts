/**
 * The readiness report (docs/readiness.md): every check run over what the sandbox observed, its findings with
 * evidence, the coverage, and the verdict: `not-ready` exactly when an `error` finding is there. Built a check at a
 * time with a turn of the event loop between, so a long journal does not hold other requests (docs/benchmarks.md).
 */
import { ApiError, quote } from '../core/errors.js';
import { pause } from '../core/pause.js';
import type { Evidence, Indexed, Severity } from './check.js';
import { CHECKS, CHECK_IDS } from './checks.js';
import { type Coverage, coverageOf } from './coverage.js';
import type { Observed } from './observed.js';
import { type Thresholds, reportOptions, thresholdsOf } from './thresholds.js';
import { parseWith } from '../core/validation.js';

export interface Finding {
  id: string;
  severity: Severity;
  title: string;
  /** How many times it happened (0 for an `untested-…` finding: never). */
  count: number;
  /** The requests and deliveries that show it, the first `evidence` (threshold) of them. */
  evidence: Evidence[];
  advice: string;
}

/** Each check and what became of it: `found` (a finding), `clear`, or `ignored` (left out by the options). */
export interface CheckResult {
  id: string;
  severity: Severity;
  title: string;
  looksFor: string;
  result: 'found' | 'clear' | 'ignored';
}

export interface ReadinessReport {
  verdict: 'ready' | 'not-ready';
  /** The tenant's API key for a tenant's report; absent for the whole sandbox's. */
  tenant?: string;
  /** Sandbox time the report was made. */
  at: string;
  /** What it was made from: /api requests and webhook deliveries, and the journal's capacity (older requests drop). */
  observed: { requests: number; deliveries: number; journalCapacity: number };
  summary: { errors: number; warnings: number; infos: number };
  findings: Finding[];
  checks: CheckResult[];
  coverage: Coverage;
  thresholds: Thresholds;
}

export interface ReportContext {
  at: string;
  tenant?: string | undefined;
  journalCapacity: number;
}

const SEVERITY_ORDER: Severity[] = ['error', 'warning', 'info'];

/** `input`: the report's options (thresholds.ts `reportOptions`), validated here. */
export async function buildReport(
  observed: Observed,
  input: unknown,
  context: ReportContext,
): Promise<ReadinessReport> {
  const options = parseWith(reportOptions(), input ?? {});
  const unknown = (options.ignore ?? []).filter((id) => !CHECK_IDS.includes(id));
  if (unknown.length > 0)
    throw ApiError.badRequest(`ignore names no check: ${unknown.map((id) => quote(id)).join(', ')}`, [
      { path: 'ignore', message: `Checks: ${CHECK_IDS.join(', ')}` },
    ]);
  const thresholds = thresholdsOf(options);
  const ignored = new Set(options.ignore ?? []);
  const indexed = await index(observed);
  const findings: Finding[] = [];
  const checks: CheckResult[] = [];
  for (const check of CHECKS) {
    const { id, severity, title, looksFor } = check;
    if (ignored.has(id)) {
      checks.push({ id, severity, title, looksFor, result: 'ignored' });
      continue;
    }
    await pause();
    const found = await check.run(indexed, thresholds);
    checks.push({ id, severity, title, looksFor, result: found ? 'found' : 'clear' });
    if (found)
      findings.push({
        id,
        severity,
        title,
        count: found.count,
        evidence: found.evidence.slice(0, thresholds.evidence),
        advice: check.advice,
      });
  }
  findings.sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  await pause();
  return {
    verdict: count('error') > 0 ? 'not-ready' : 'ready',
    ...(context.tenant !== undefined ? { tenant: context.tenant } : {}),
    at: context.at,
    observed: {
      requests: observed.requests.length,
      deliveries: observed.deliveries.length,
      journalCapacity: context.journalCapacity,
    },
    summary: { errors: count('error'), warnings: count('warning'), infos: count('info') },
    findings,
    checks,
    coverage: indexed.coverage,
    thresholds,
  };
}

async function index(o: Observed): Promise<Indexed> {
  const byArrival = [...o.requests].sort((a, b) => a.arrived - b.arrived);
  await pause();
  const tenantsWithWebhooks = new Set(o.webhooks.filter((w) => w.subscribed).map((w) => w.platformId));
  const coverage = coverageOf(o);
  await pause();
  return { ...o, byArrival, tenantsWithWebhooks, coverage };
}
