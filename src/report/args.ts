/** The flags of `esign-sandbox report` and their ESIGN_SANDBOX_* twins (docs/readiness.md, "The CLI"). */
import { parseArgs } from 'node:util';

export const REPORT_HELP = `esign-sandbox report: is the integration ready to go live?

Usage
  esign-sandbox report [--url <url>] [--tenant <apiKey>] [--junit <file>] [--markdown <file>] [options]

Asks a running sandbox for its readiness report (docs/readiness.md): what the integration under test did wrong,
with evidence, and the hard cases it never tried, judged from the /api requests, webhook deliveries and faults the
sandbox saw. Prints it for a person, writes the formats asked for, and exits by the verdict.

Options
      --url <url>           The sandbox (default $ESIGN_SANDBOX_URL, else http://127.0.0.1:4010)
      --tenant <apiKey>     Only this tenant's traffic (a platform made with POST /__sandbox/platforms)
      --json <file>         Write the report as JSON
      --junit <file>        Write it as JUnit XML: a test case per check, a failure per error finding
      --markdown <file>     Write it as Markdown, e.g. "$GITHUB_STEP_SUMMARY"
      --fail-on <level>     error (default), warning or never: exit 1 when a finding is at least this
      --threshold <n=v>     A check's threshold, e.g. pollingReads=5 or slowWebhook=2s; repeatable
      --ignore <ids>        Leave these checks out, comma-separated, e.g. client-errors,polling
  -q, --quiet               Print nothing but a failure's reason
  -h, --help                Show this help

Every option can also be set as an environment variable: ESIGN_SANDBOX_URL, ESIGN_SANDBOX_TENANT,
ESIGN_SANDBOX_REPORT_JSON, ESIGN_SANDBOX_REPORT_JUNIT, ESIGN_SANDBOX_REPORT_MARKDOWN, ESIGN_SANDBOX_FAIL_ON.
Flags win.

Exit status: 0 when no finding is at or above --fail-on, 1 when one is, 2 when the report could not be made
(sandbox unreachable, unknown tenant, a bad option, a file that cannot be written), with one sentence why.

Example
  esign-sandbox report --junit reports/readiness.xml --markdown "$GITHUB_STEP_SUMMARY"`;

export const FAIL_ON = ['error', 'warning', 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface ReportArgs {
  help?: true;
  url: string;
  tenant?: string | undefined;
  json?: string | undefined;
  junit?: string | undefined;
  markdown?: string | undefined;
  failOn: FailOn;
  /** Thresholds and `ignore`, as the report's query takes them. */
  options: Record<string, string>;
  quiet: boolean;
}

/** A flag the user got wrong: exit 2 with its message. */
export class ReportArgsError extends Error {}

export function parseReportArgs(argv: string[], env: NodeJS.ProcessEnv): ReportArgs {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        tenant: { type: 'string' },
        json: { type: 'string' },
        junit: { type: 'string' },
        markdown: { type: 'string' },
        'fail-on': { type: 'string' },
        threshold: { type: 'string', multiple: true },
        ignore: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new ReportArgsError((error as Error).message.replace(/\. To specify.*$/s, ''));
  }
  const pick = (flag: string, variable: string) => (values[flag] as string | undefined) ?? (env[variable] || undefined);
  const failOn = pick('fail-on', 'ESIGN_SANDBOX_FAIL_ON') ?? 'error';
  if (!FAIL_ON.includes(failOn as FailOn))
    throw new ReportArgsError(`--fail-on takes error, warning or never (got "${failOn}")`);
  const options: Record<string, string> = {};
  for (const pair of (values.threshold as string[] | undefined) ?? []) {
    const m = /^([A-Za-z]+)=(.+)$/.exec(pair);
    if (!m) throw new ReportArgsError(`--threshold takes name=value, e.g. pollingReads=5 (got "${pair}")`);
    options[m[1]!] = m[2]!;
  }
  if (typeof values.ignore === 'string') options.ignore = values.ignore;
  return {
    ...(values.help ? { help: true as const } : {}),
    url: (pick('url', 'ESIGN_SANDBOX_URL') ?? 'http://127.0.0.1:4010').replace(/\/+$/, ''),
    tenant: pick('tenant', 'ESIGN_SANDBOX_TENANT'),
    json: pick('json', 'ESIGN_SANDBOX_REPORT_JSON'),
    junit: pick('junit', 'ESIGN_SANDBOX_REPORT_JUNIT'),
    markdown: pick('markdown', 'ESIGN_SANDBOX_REPORT_MARKDOWN'),
    failOn: failOn as FailOn,
    options,
    quiet: values.quiet === true,
  };
}
