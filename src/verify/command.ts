/**
 * `esign-sandbox verify`: the probe flows against a target and a fresh in-process sandbox, the table, `--json`,
 * `--record`, and the exit status (0 same, 1 drift, 2 could not run). The sandbox comes from `startLocal` (the
 * library's startSandbox, handed in by the CLI), so this folder only speaks HTTP to both sides.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sqlTime } from '../core/time-format.js';
import { wallNow } from '../core/wall-time.js';
import { VERIFY_HELP, parseVerifyArgs } from './args.js';
import { probeSteps } from './flows.js';
import { reportJson, reportTable } from './report.js';
import type { Redactor } from './redact.js';
import { CannotRun, runProbes, secretsOf } from './runner.js';

/** A sandbox to compare with: where it listens, its platform's credentials, and how to stop it. */
export interface LocalSandbox {
  url: string;
  apiKey: string | undefined;
  secret: string | undefined;
  close(): Promise<void>;
}

export interface VerifyIo {
  startLocal(): Promise<LocalSandbox>;
  out(text: string): void;
  err(text: string): void;
}

/** The run's client name: `esign-sandbox verify 2026-11-25 14:03:07` (UTC), so runs never share a client. */
export function runName(now = wallNow()): string {
  return `esign-sandbox verify ${sqlTime(now)}`;
}

export async function runVerify(argv: string[], env: NodeJS.ProcessEnv, io: VerifyIo): Promise<0 | 1 | 2> {
  let local: LocalSandbox | undefined;
  let secrets: Redactor | undefined;
  try {
    const options = parseVerifyArgs(argv, env);
    if (options.help) {
      io.out(VERIFY_HELP);
      return 0;
    }
    secrets = secretsOf({ url: options.target, apiKey: options.apiKey, secret: options.secret }, options.email);
    local = await io.startLocal();
    if (!local.apiKey || !local.secret) throw new CannotRun('the local sandbox has no platform to compare with.');
    const report = await runProbes({
      target: { url: options.target, apiKey: options.apiKey, secret: options.secret },
      sandbox: { url: local.url, apiKey: local.apiKey, secret: local.secret },
      steps: probeSteps(options.only, options.send),
      clientName: runName(),
      ...(options.email ? { email: options.email } : {}),
      record: options.record !== undefined,
      timeoutMs: options.timeoutMs,
      secrets,
    });
    // Whatever a target echoed (a secret in a message, a token in a key) is hidden before it is printed or written.
    io.out(secrets.text(reportTable(report)));
    const json = secrets.redact(reportJson(report));
    if (options.json) {
      mkdirSync(dirname(options.json), { recursive: true });
      writeFileSync(options.json, `${JSON.stringify(json, null, 2)}\n`);
    }
    if (options.record) {
      mkdirSync(options.record, { recursive: true });
      for (const t of report.transcripts)
        writeFileSync(join(options.record, `${t.flow}.json`), `${JSON.stringify(t, null, 2)}\n`);
      io.out(`Transcripts: ${report.transcripts.map((t) => join(options.record!, `${t.flow}.json`)).join(', ')}`);
    }
    return json.summary.drifts > 0 ? 1 : 0;
  } catch (error) {
    // CannotRun and VerifyUsageError carry their sentence; anything else (a folder --json cannot write) its message.
    const message = (error as Error).message;
    io.err(`esign-sandbox verify: cannot run: ${secrets ? secrets.text(message) : message}`);
    return 2;
  } finally {
    await local?.close();
  }
}
