/**
 * Node's fetch meets a `garbage` fault as docs/errors.md says (`cause.code` HPE_INVALID_CONSTANT) in a test worker where
 * testcontainers loaded first: test/container/testcontainers.test.ts loads it, and its undici 7 makes its own Agent the
 * process's dispatcher when no fetch has run yet, whose parser errors carry no code (test/support/node-fetch-first.ts).
 * Imported before anything else here, so that run alone (first in its worker) this file fails without that setup file.
 */
import 'testcontainers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox?.close());

it('fetch meets garbage as HPE_INVALID_CONSTANT though testcontainers was loaded first', async () => {
  await sandbox.faults.set({ match: { path: '/api/contract' }, connection: 'garbage', times: 1 });
  const error = await fetch(`${sandbox.url}/api/contract`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey! },
    body: JSON.stringify({ data: { action: 'list', clientKey: sandbox.clientKey } }),
  }).catch((e: Error & { cause?: { code?: string } }) => e);
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error & { cause?: { code?: string } }).cause?.code).toBe('HPE_INVALID_CONSTANT');
});
