/** The result of a run: a table a person reads, and the JSON of `--json` (docs/verify.md, "Output"). */
import type { RunReport } from './runner.js';

/** The `--json` document: `{target, steps: [{name, path, action, drifts}], summary: {steps, drifts}}`. */
export function reportJson(report: RunReport) {
  const steps = report.steps.map(({ name, path, action, drifts }) => ({ name, path, action, drifts }));
  return {
    target: report.target,
    steps,
    summary: { steps: steps.length, drifts: steps.reduce((n, s) => n + s.drifts.length, 0) },
  };
}

export function reportTable(report: RunReport): string {
  const width = Math.max(4, ...report.steps.map((s) => s.name.length)) + 2;
  const lines = [
    `esign-sandbox verify: ${report.target} against a fresh sandbox, in the client "${report.clientName}"`,
    '',
    `${'step'.padEnd(width)}result`,
  ];
  for (const step of report.steps) {
    const result =
      step.result === 'same'
        ? 'same'
        : step.result === 'skipped'
          ? `skipped: ${step.note}`
          : `${step.drifts.length} drift${step.drifts.length === 1 ? '' : 's'}`;
    lines.push(`${step.name.padEnd(width)}${result}`);
    for (const d of step.drifts) lines.push(`  ${d.path}: sandbox ${d.sandbox} / target ${d.target}`);
  }
  const { summary } = reportJson(report);
  const drifted = report.steps.filter((s) => s.result === 'drift').length;
  lines.push(
    '',
    `${summary.steps} steps, ${drifted} with drift (${summary.drifts} drift${summary.drifts === 1 ? '' : 's'}).`,
  );
  if (report.cleaned.length) lines.push(`Cleaned up on the target: ${report.cleaned.join('; ')}.`);
  if (report.left.length) lines.push(`Left on the target: ${report.left.join('; ')}.`);
  return lines.join('\n');
}
