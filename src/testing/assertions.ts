/**
 * Assertions a test suite ends with (docs/library.md, "Assertions"): they fail the test with the evidence, in any
 * runner (they throw node:assert's AssertionError, which vitest, jest and node:test show as a failed assertion).
 *
 *   assertReady(await sandbox.report());                         // not-ready: every error finding, with evidence
 *   assertExpectationsMet(await sandbox.scenarios.get('go-live')); // an expectation pending or failed
 */
import { AssertionError } from 'node:assert';
import type { ScenarioSummary } from '../control/sandbox-control.js';
import { toText } from '../readiness/formats.js';
import type { ReadinessReport } from '../readiness/report.js';

/**
 * Fails when the readiness report has an error finding (or, with `failOn: 'warning'`, a warning too); the message is
 * the report as `esign-sandbox report` prints it: each finding with its evidence and advice.
 */
export function assertReady(report: ReadinessReport, options: { failOn?: 'error' | 'warning' } = {}): void {
  const failOn = options.failOn ?? 'error';
  const failing = report.findings.filter(
    (f) => f.severity === 'error' || (failOn === 'warning' && f.severity === 'warning'),
  );
  if (failing.length === 0) return;
  throw new AssertionError({
    message: `the integration is not ready (${failing.map((f) => f.id).join(', ')}):\n\n${toText(report)}`,
    actual: failing.map((f) => f.id),
    expected: [],
    operator: 'assertReady',
  });
}

/** Fails unless every `expect:` entry of the scenario (or of each scenario given) is `met`, naming the others. */
export function assertExpectationsMet(scenario: ScenarioSummary | ScenarioSummary[]): void {
  const scenarios = Array.isArray(scenario) ? scenario : [scenario];
  const unmet = scenarios.flatMap((s) =>
    s.expectations.filter((e) => e.status !== 'met').map((e) => ({ scenario: s.name, ...e })),
  );
  if (unmet.length === 0) return;
  const lines = unmet.map((e) => `  ${e.scenario}: ${e.id} is ${e.status}: ${e.evidence}`);
  throw new AssertionError({
    message: `${unmet.length} scenario expectation${unmet.length === 1 ? ' is' : 's are'} not met:\n${lines.join('\n')}`,
    actual: unmet.map((e) => `${e.id}: ${e.status}`),
    expected: [],
    operator: 'assertExpectationsMet',
  });
}
