/**
 * `esign-sandbox report` (docs/readiness.md, "The CLI"): asks a running sandbox for its readiness report over HTTP,
 * prints it for a person, writes JSON, JUnit XML and Markdown where asked (made here from the JSON, the same
 * functions the control API uses), and exits 0, 1 (a finding at or above --fail-on) or 2 (no report, and why).
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createControlClient } from '../client/control-client.js';
import { SandboxControlError } from '../control/sandbox-control.js';
import { toJUnit, toMarkdown, toText } from '../readiness/formats.js';
import type { ReadinessReport } from '../readiness/report.js';
import { type FailOn, REPORT_HELP, ReportArgsError, parseReportArgs } from './args.js';

export interface ReportIo {
  out(text: string): void;
  err(text: string): void;
}

/** Runs the command; resolves with the exit status. */
export async function runReport(argv: string[], env: NodeJS.ProcessEnv, io: ReportIo): Promise<number> {
  let report: ReadinessReport;
  let args: ReturnType<typeof parseReportArgs>;
  try {
    args = parseReportArgs(argv, env);
    if (args.help) {
      io.out(REPORT_HELP);
      return 0;
    }
    const client = createControlClient(args.url);
    report = await (args.tenant !== undefined ? client.tenant(args.tenant) : client).report(args.options);
    // The step summary file of a CI job is appended to, as each step adds its part; other files are written anew.
    if (args.json) await write(args.json, `${JSON.stringify(report, null, 2)}\n`);
    if (args.junit) await write(args.junit, toJUnit(report));
    if (args.markdown) await write(args.markdown, toMarkdown(report), args.markdown === env.GITHUB_STEP_SUMMARY);
  } catch (error) {
    io.err(`esign-sandbox report: ${why(error)}`);
    return 2;
  }
  if (!args.quiet) io.out(toText(report));
  return failed(report, args.failOn) ? 1 : 0;
}

function failed(report: ReadinessReport, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return report.findings.some((f) => f.severity === 'error' || (failOn === 'warning' && f.severity === 'warning'));
}

async function write(file: string, text: string, append = false): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await (append ? appendFile(file, text) : writeFile(file, text));
}

/** One sentence saying why there is no report. */
function why(error: unknown): string {
  if (error instanceof ReportArgsError) return `${error.message}. Run esign-sandbox report --help for the options.`;
  if (error instanceof SandboxControlError)
    return error.status === 0 ? error.message : `the sandbox answered ${error.status}: ${error.message}`;
  const code = (error as { code?: string }).code;
  if (code !== undefined && 'path' in (error as object))
    return `could not write ${(error as { path: string }).path} (${code})`;
  return (error as Error).message ?? String(error);
}
