/**
 * A data file of its own for each test, for in-process sandboxes on `--data` that stop, are "killed" and open the
 * same file again (docs/persistence.md): `const data = dataFileEachTest('esign-in-flight-')` at the top of a file,
 * then `data.sandbox()`, `data.kill(t)`, `data.file`. What a test opened is closed after it and the folder removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { SandboxOptions } from '../../src/config/options.js';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { FROZEN, type TestSandbox, testSandbox } from './helpers.js';

export function dataFileEachTest(prefix: string) {
  const open = new Set<TestSandbox>();
  const receivers: WebhookReceiver[] = [];
  const data = {
    dir: '',
    file: '',
    /** An empty folder and data file in place of this test's (a second run from scratch, to compare with). */
    fresh(): void {
      if (data.dir) rmSync(data.dir, { recursive: true, force: true });
      data.dir = mkdtempSync(join(tmpdir(), prefix));
      data.file = join(data.dir, 'data.json');
    },
    /** A sandbox on the data file: frozen at 2026-03-01T09:00:00.000Z unless `options` say otherwise. */
    async sandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
      const t = await testSandbox({ data: data.file, ...FROZEN, ...options });
      open.add(t);
      return t;
    },
    /** Stops a sandbox as a process stops: what is pending is written. */
    async stop(t: TestSandbox): Promise<void> {
      open.delete(t);
      await t.close();
    },
    /** As if the process were killed once the flush window has passed: what is pending is written, nothing after. */
    async kill(t: TestSandbox): Promise<void> {
      const { store } = t.sandbox.services;
      await store.flush();
      await store.abandon();
      await data.stop(t);
    },
    /** A webhook receiver, closed after the test. */
    async receiver(options?: Parameters<typeof createWebhookReceiver>[0]): Promise<WebhookReceiver> {
      const r = await createWebhookReceiver(options);
      receivers.push(r);
      return r;
    },
  };
  beforeEach(() => data.fresh());
  afterEach(async () => {
    for (const t of [...open]) await data.stop(t);
    for (const r of receivers.splice(0)) await r.close();
    rmSync(data.dir, { recursive: true, force: true });
    data.dir = '';
  });
  return data;
}
