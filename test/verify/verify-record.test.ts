/**
 * `verify --record`: transcripts that hide every secret, token, key and email the run used (grepped for, file by
 * file), that follow the documented format, and that replay against another sandbox with no drift.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { parseTranscript, replayTranscript } from '../../src/verify/transcript.js';
import { targetArgs, verify } from '../support/verify-kit.js';

const dir = mkdtempSync(join(tmpdir(), 'esign-verify-record-'));
const EMAIL = 'owner+esign-verify@example.org';
let second: RunningSandbox;
let files: string[];

beforeAll(async () => {
  // A platform of its own, with credentials that appear nowhere else, so a leak is unmistakable.
  second = await startSandbox({ apiKey: 'recordApiKey7Q2', secret: 'recordSecret9Z4' });
  const run = await verify([...targetArgs(second), '--record', dir, '--send', '--email', EMAIL]);
  expect(run.err).toBe('');
  expect(run.code).toBe(0); // the recipient flow too: every step the same
  files = readdirSync(dir).map((f) => join(dir, f));
}, 60_000);
afterAll(async () => {
  await second.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every string the target's store holds under a key, token, secret or email field: what must not leak. */
function secretsOf(value: unknown, field = '', out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (/(key|token|secret|email|link)$/i.test(field) && value.length >= 6) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) secretsOf(v, field, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) secretsOf(v, k, out);
  return out;
}

describe('verify --record', () => {
  it('writes one transcript per flow, the recipient flow included with --send', () => {
    const flows = files.map((f) => f.split('/').pop());
    expect(flows.sort()).toEqual(
      [
        'client',
        'contract',
        'errors',
        'placeholder',
        'recipient',
        'settings',
        'template',
        'token',
        'user',
        'webhook',
      ].map((f) => `${f}.json`),
    );
  });

  it('leaves no secret, token, API key, key or email in any file', async () => {
    const snapshot = await second.snapshot();
    const secrets = secretsOf(snapshot);
    for (const known of [second.apiKey!, second.secret!, EMAIL, 'esign-sandbox-verify@example.com']) secrets.add(known);
    // The snapshot keeps tokens too; the recorded runs' keys are among them.
    expect(secrets.size).toBeGreaterThan(20);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${secret} in ${file}`).toBe(false);
      expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[a-z]{2,}/i);
    }
  });

  it('uses stable placeholders: one value, one placeholder, in every file', () => {
    const transcripts = files.map((f) => parseTranscript(readFileSync(f, 'utf8'), f));
    const clientKeys = new Set(
      transcripts.map((t) => (t.exchanges[1]!.response.body as { client: { clientKey: string } }).client.clientKey),
    );
    expect([...clientKeys]).toEqual(['<clientKey#1>']);
    for (const t of transcripts) {
      expect(t.credentials).toEqual({ apiKey: '<apiKey#1>', secret: '<secret#1>' });
      expect(t.source).toMatch(/^recorded: esign-sandbox verify against 127\.0\.0\.1:\d+, \d{4}-\d\d-\d\d$/);
      expect(t.placeholders['<contractKey#1>']).toBe('key of 20 [A-Za-z0-9]');
      expect(t.placeholders['<email#1>']).toBe('email');
    }
  });

  it('replays every recorded transcript against another sandbox with no drift', async () => {
    const third = await startSandbox();
    try {
      for (const file of files) {
        const replayed = await replayTranscript(parseTranscript(readFileSync(file, 'utf8'), file), {
          url: third.url,
          apiKey: third.apiKey!,
          secret: third.secret!,
        });
        expect(replayed.length).toBeGreaterThan(3);
        expect(replayed.filter((r) => r.drifts.length)).toEqual([]);
      }
    } finally {
      await third.close();
    }
  });
});
