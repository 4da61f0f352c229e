/**
 * A `--scenario` whose `data:` section sends a contract to a webhook: no delivery goes out before the sandbox
 * listens, so a receiver that calls back on its first webhook finds the sandbox there (docs/ci.md).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox.js';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { freePort } from '../support/ci-kit.js';
import { scratchDir } from '../support/scratch.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

/**
 * Fixtures with a webhook (seeding is muted, decisions: it fires nothing) and a scenario whose data sends a
 * contract to that client (not muted: its events fire the webhook at start).
 */
function startFiles(webhookUrl: string): { fixtures: string; scenario: string } {
  const dir = scratchDir('esign-start-hooks-');
  const fixtures = join(dir, 'fixtures.yaml');
  writeFileSync(
    fixtures,
    `platforms:
  - apiKey: sandboxApiKey
    secret: sandboxSecret
    clients:
      - clientKey: demoClient
        fullname: Demo Client
        webhooks: [{ url: "${webhookUrl}", created: true, sent: true }]
`,
  );
  const scenario = join(dir, 'send-at-start.yaml');
  writeFileSync(
    scenario,
    `name: send-at-start
data:
  clients:
    - clientKey: demoClient
      contracts:
        - name: Sent at start
          value: <p>Terms</p>
          send: true
          recipients:
            - { fullname: Grace Hopper, email: grace@example.com, action: sign, position: 1 }
`,
  );
  return { fixtures, scenario };
}

describe('webhooks caused at start', () => {
  it('wait until the sandbox listens', async () => {
    const receiver = await createWebhookReceiver({ rejectUnverified: false });
    const files = startFiles(receiver.url);
    const sandbox = await createSandbox(
      { fixtures: files.fixtures, scenarios: [files.scenario] },
      { port: 0, webhooksAfterListen: true },
    );
    try {
      // Held in their lanes, not attempted: no timer stands between them and the receiver, only listen().
      const held = (await (await sandbox.app.request('/__sandbox/webhook-deliveries')).json()) as {
        deliveries: { status: string; attempts: unknown[] }[];
      };
      expect(held.deliveries.map((d) => [d.status, d.attempts.length])).toEqual([
        ['pending', 0],
        ['pending', 0],
      ]);
      expect(receiver.deliveries).toEqual([]);
      await sandbox.listen();
      const got = await receiver.waitFor(2);
      expect(got.map((d) => JSON.parse(d.body).type)).toEqual(['contract.created', 'contract.sent']);
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  it('find the CLI listening when the receiver calls back on the first one', async () => {
    const port = await freePort();
    const callbacks: number[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      fetch(`http://127.0.0.1:${port}/__sandbox/health`).then(
        (health) => callbacks.push(health.status),
        () => callbacks.push(0),
      );
      res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
    const files = startFiles(url);
    const args = ['--quiet', '--port', String(port), '--fixtures', files.fixtures, '--scenario', files.scenario];
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
    try {
      while (callbacks.length < 2) await new Promise((r) => setTimeout(r, 25));
      expect(callbacks).toEqual([200, 200]);
    } finally {
      child.kill('SIGTERM');
      receiver.close();
    }
  });
});
