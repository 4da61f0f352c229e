/**
 * The Dockerfile, built and run with podman (docs/ci.md). No registry is reachable in CI, so the base the
 * Dockerfile names (node:22-bookworm-slim) is a local stand-in: Debian bookworm made with mmdebstrap plus THIS
 * machine's Node and npm copied in, and the Node image's `node` user (scripts/podman.mjs). Then the real
 * Dockerfile is built on it, started, and driven: health check, create → send → sign, a webhook to a receiver on
 * the host, SIGTERM, a restart on the same volume, and the user the process runs as.
 * Locally without podman (or not as root) it skips saying why; in CI (CI=true) it never skips.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE, LIMITS, containerRunning, ensureImage, podman, unavailable } from '../../scripts/podman.mjs';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { freePort } from '../support/ci-kit.js';

const why = unavailable();
if (why && process.env.CI === 'true') throw new Error(`the container test must run in CI: ${why}`);
if (why) console.log(`test/container skipped: ${why}`);

const id = randomBytes(4).toString('hex');
const volume = `esign-test-${id}`;
const names: string[] = [];

function start(name: string, port: number, env: Record<string, string> = {}): void {
  names.push(name);
  const envFlags = Object.entries({ ESIGN_SANDBOX_PORT: String(port), ...env }).flatMap(([k, v]) => [
    '-e',
    `${k}=${v}`,
  ]);
  podman(['run', '-d', '--name', name, ...LIMITS, '-v', `${volume}:/data`, ...envFlags, IMAGE]);
}

/**
 * Runs the image's own HEALTHCHECK command (podman has no timer for it without systemd) until it passes, as long as
 * the container runs (the test's time-out bounds the wait, not a guess at the machine's speed).
 */
async function healthy(name: string): Promise<void> {
  while (containerRunning(name)) {
    if (podman(['healthcheck', 'run', name], { allowFailure: true }).status === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `${name} stopped before it became healthy:\n${podman(['logs', name], { allowFailure: true }).stdout}`,
  );
}

async function api(url: string, path: string, data: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': 'sandboxApiKey' },
    body: JSON.stringify({ data: { clientKey: 'demoClient', ...(data as object) } }),
  });
  return (await res.json()) as Record<string, unknown>;
}

describe.skipIf(why !== undefined)('the container image', () => {
  beforeAll(() => {
    ensureImage();
  }, 900_000);
  afterAll(() => {
    for (const name of names) podman(['rm', '-f', name], { allowFailure: true });
    podman(['volume', 'rm', '-f', volume], { allowFailure: true });
  });

  it('runs the flow, delivers webhooks to the host, stops on SIGTERM and keeps its data on the volume', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const receiver = await createWebhookReceiver({ rejectUnverified: false });
    try {
      start(`esign-a-${id}`, port, { ESIGN_SANDBOX_PUBLIC_URL: `http://esign:${port}` });
      await healthy(`esign-a-${id}`);

      // The process inside runs as the image's non-root user.
      const uid = podman(['exec', `esign-a-${id}`, 'sh', '-c', "awk '/^Uid/{print $2}' /proc/1/status"]).stdout;
      expect(Number(uid.trim())).toBeGreaterThan(0);

      const hook = await api(url, '/api/webhook', {
        action: 'create',
        webhooks: [{ url: receiver.url, created: true, sent: true, signed: true, fullySigned: true }],
      });
      expect(hook.code).toBe('201');
      const created = await api(url, '/api/contract', {
        action: 'create',
        contract: { name: 'Container agreement', value: '<p>Terms</p>' },
      });
      const contractKey = (created.contract as { contractKey: string }).contractKey;
      await api(url, '/api/recipient', {
        action: 'send',
        contractKey,
        recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 }],
      });
      const contract = (await (await fetch(`${url}/__sandbox/contracts/${contractKey}`)).json()) as {
        recipients: { recipientKey: string }[];
      };
      const recipientKey = contract.recipients[0]!.recipientKey;
      const signed = await fetch(`${url}/__sandbox/recipients/${recipientKey}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(signed.status).toBe(200);
      const got = await receiver.waitFor((ds) => ds.some((d) => JSON.parse(d.body).type === 'contract.fully_signed'));
      expect(got.map((d) => JSON.parse(d.body).type)).toContain('contract.sent');

      // Links name the address clients use (--public-url), not the container's.
      const emails = (await (await fetch(`${url}/__sandbox/emails?contractKey=${contractKey}`)).json()) as unknown;
      expect(JSON.stringify(emails)).toContain(`http://esign:${port}/sharing/`);

      // SIGTERM to PID 1: the data file is written and the exit status is 0.
      podman(['stop', '--time', '10', `esign-a-${id}`]);
      const exit = podman(['inspect', '--format', '{{.State.ExitCode}}', `esign-a-${id}`]).stdout.trim();
      expect(exit).toBe('0');
      expect(podman(['logs', `esign-a-${id}`]).stdout).toMatch(/SIGTERM: stopping and writing the data file/);

      // A new container on the same volume finds the contract.
      // (On another port: the client's pooled connections to the first container are dead.)
      const port2 = await freePort();
      start(`esign-b-${id}`, port2);
      await healthy(`esign-b-${id}`);
      const again = await fetch(`http://127.0.0.1:${port2}/__sandbox/contracts/${contractKey}`);
      expect(again.status).toBe(200);
      expect(JSON.stringify(await again.json())).toContain('Container agreement');
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
