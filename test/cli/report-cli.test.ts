/**
 * `esign-sandbox report` as a CI step runs it (the built CLI against a running sandbox, docs/readiness.md): its exit
 * codes (0 ready, 1 a finding at or above --fail-on, 2 no report and why), the files it writes, and the JUnit XML
 * read back as JUnit. The findings come from requests alone (a token sent again after its 401), so nothing here
 * depends on time.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { scratchDir } from '../support/scratch.js';
import { platformTokenOverHttp } from '../support/tenant-kit.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
let sandbox: RunningSandbox;
/** An XML element as htmlparser2 reads it: its name, attributes and children. */
interface Element {
  name: string;
  attribs: Record<string, string>;
  children: unknown[];
}
const keys: Record<'error' | 'warning' | 'quiet', string> = { error: '', warning: '', quiet: '' };

function report(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'report', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

async function api(apiKey: string, body: unknown, bearer?: string) {
  const res = await fetch(`${sandbox.url}/api/contract`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : { 'x-service-key': apiKey }),
    },
    body: JSON.stringify(body),
  });
  return res.status;
}

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen' });
  for (const name of Object.keys(keys) as (keyof typeof keys)[])
    keys[name] = (await sandbox.createPlatform({ name })).apiKey;
  // error: a token sent again after a 401 said it expired.
  const platform = await sandbox.createPlatform({ name: 'tokens' });
  keys.error = platform.apiKey;
  const token = await platformTokenOverHttp(sandbox.url, platform);
  await sandbox.tenant(platform.apiKey).expireTokens();
  for (let i = 0; i < 2; i++) expect(await api(platform.apiKey, { data: { action: 'list' } }, token)).toBe(401);
  // warning: requests the service refused, for no reason the sandbox made.
  for (let i = 0; i < 3; i++) expect(await api(keys.warning, { data: { action: 'read' } })).toBe(400);
});
afterAll(() => sandbox?.close());

describe('esign-sandbox report', () => {
  it('exits 1 on an error finding and prints it with its evidence', async () => {
    const { code, out } = await report(['--url', sandbox.url, '--tenant', keys.error]);
    expect(code).toBe(1);
    expect(out).toContain(`Readiness of tenant ${keys.error}: NOT READY`);
    expect(out).toMatch(/ERROR\s+expired-token-reused: Sends a token again after a 401 said it expired \(1\)/);
    expect(out).toMatch(/request \d+: POST \/api\/contract \(list\) → 401 at .*: token #1 sent again after that 401/);
  });

  it('exits 0 on warnings unless --fail-on warning, and --fail-on never always 0', async () => {
    expect((await report(['--url', sandbox.url, '--tenant', keys.warning])).code).toBe(0);
    expect((await report(['--url', sandbox.url, '--tenant', keys.warning, '--fail-on', 'warning'])).code).toBe(1);
    expect((await report(['--url', sandbox.url, '--tenant', keys.error, '--fail-on', 'never'])).code).toBe(0);
    const quiet = await report(['--url', sandbox.url, '--tenant', keys.quiet, '--fail-on', 'warning']);
    expect(quiet.code).toBe(0);
    expect(quiet.out).toContain('The sandbox saw no /api request of this tenant');
  });

  it('takes thresholds and ignores', async () => {
    const ignored = await report(['--url', sandbox.url, '--tenant', keys.error, '--ignore', 'expired-token-reused']);
    expect(ignored.code).toBe(0);
    const raised = await report([
      '--url',
      sandbox.url,
      '--tenant',
      keys.warning,
      '--fail-on',
      'warning',
      '--threshold',
      'clientErrorMin=4',
    ]);
    expect(raised.code).toBe(0);
  });

  it('exits 2 with one sentence when it cannot make a report', async () => {
    const cases: [string[], RegExp][] = [
      [['--url', 'http://127.0.0.1:1'], /^esign-sandbox report: Cannot reach the sandbox at http:\/\/127\.0\.0\.1:1/],
      [['--url', sandbox.url, '--tenant', 'nobody'], /the sandbox answered 404: No platform with this apiKey/],
      [['--url', sandbox.url, '--fail-on', 'sometimes'], /--fail-on takes error, warning or never \(got "sometimes"\)/],
      [['--url', sandbox.url, '--threshold', 'pollingReads=none'], /the sandbox answered 400: .*pollingReads/],
      [['--url', sandbox.url, '--ignore', 'pollin'], /the sandbox answered 400: ignore names no check: "pollin"/],
      [['--colour'], /Unknown option '--colour'.*report --help/],
    ];
    for (const [args, why] of cases) {
      const { code, err, out } = await report(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err, args.join(' ')).toMatch(why);
      expect(out).toBe('');
    }
  });

  it('writes JSON, Markdown and JUnit XML that reads back as JUnit', async () => {
    const dir = scratchDir('esign-report-');
    const files = { json: join(dir, 'r.json'), junit: join(dir, 'out', 'r.xml'), markdown: join(dir, 'r.md') };
    const { code } = await report([
      '--url',
      sandbox.url,
      '--tenant',
      keys.error,
      '--json',
      files.json,
      '--junit',
      files.junit,
      '--markdown',
      files.markdown,
    ]);
    expect(code).toBe(1);
    const json = JSON.parse(readFileSync(files.json, 'utf8'));
    expect(json.verdict).toBe('not-ready');
    expect(readFileSync(files.markdown, 'utf8')).toMatch(/^## Go-live readiness: ❌ not ready\n/);

    const doc = parseDocument(readFileSync(files.junit, 'utf8'), { xmlMode: true });
    const elements = (node: { children?: unknown[] }, name: string): Element[] =>
      ((node.children ?? []) as Element[]).flatMap((c) => [...(c.name === name ? [c] : []), ...elements(c, name)]);
    const [suites] = elements(doc, 'testsuites');
    const [suite] = elements(suites!, 'testsuite');
    const cases = elements(suite!, 'testcase');
    expect(cases).toHaveLength(json.checks.length);
    expect(Number(suite!.attribs.tests)).toBe(cases.length);
    expect(Number(suite!.attribs.failures)).toBe(1);
    const failures = cases.filter((c) => elements(c, 'failure').length > 0);
    expect(failures.map((c) => c.attribs.name)).toEqual([
      'expired-token-reused: Sends a token again after a 401 said it expired',
    ]);
    const failure = elements(failures[0]!, 'failure')[0]!;
    expect(failure.attribs.type).toBe('expired-token-reused');
    const text = (failure.children as unknown as { data: string }[]).map((c) => c.data).join('');
    expect(text).toContain('token #1 sent again after that 401');
    // What the run never tried shows as skipped tests.
    expect(Number(suite!.attribs.skipped)).toBe(cases.filter((c) => elements(c, 'skipped').length > 0).length);
    expect(Number(suite!.attribs.skipped)).toBeGreaterThan(0);
  });

  it('appends to the CI step summary, as each step adds its part', async () => {
    const summary = join(scratchDir('esign-summary-'), 'summary.md');
    writeFileSync(summary, '# Earlier step\n');
    await report(['--url', sandbox.url, '--tenant', keys.quiet, '--markdown', summary], {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(readFileSync(summary, 'utf8')).toMatch(/^# Earlier step\n## Go-live readiness: ✅ ready/);
  });

  it('reads its settings from the environment, and says what it does with --help', async () => {
    expect((await report([], { ESIGN_SANDBOX_URL: sandbox.url, ESIGN_SANDBOX_TENANT: keys.error })).code).toBe(1);
    const help = await report(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Exit status: 0 when no finding is at or above --fail-on');
  });
});
