/**
 * The shared rig of the fuzz tests (fuzz.test.ts, control-fuzz.test.ts): a fresh world with one of everything,
 * the request sender, the well-formedness and health checks, and the fast-check options.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Scope } from '../../src/resources/action.js';
import { resources } from '../../src/resources/index.js';
import { FUZZ_RUNS, FUZZ_SEED } from './fuzz-kit.js';
import { type Answer, DEMO, FROZEN, type TestSandbox, testSandbox } from './helpers.js';
import { createContract } from './contract-walk.js';

const prototypeKeys = () =>
  [Object.prototype, Array.prototype, Function.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join());
const pristine = prototypeKeys();

export function expectPrototypesClean(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect(prototypeKeys()).toEqual(pristine);
}

export interface World {
  t: TestSandbox;
  keys: Record<string, string>;
}

/** A fresh sandbox with one of everything an example can name: a sent contract with a recipient, a webhook, a client token. */
export async function world(): Promise<World> {
  const t = await testSandbox(FROZEN);
  const auth = await t.demoAuth();
  const created = await createContract(t, auth, { name: 'Fuzz target', value: '<p>x</p>' }, [
    { email: 'r@example.com', fullname: 'R', action: 'sign' },
  ]);
  const contractKey = created.body.contract.contractKey as string;
  const recipients = await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth);
  const hooks = await t.post(
    '/api/webhook',
    { data: { action: 'create', webhooks: [{ url: 'http://127.0.0.1:9/hook', signed: true }] } },
    auth,
  );
  const placeholder = await t.post(
    '/api/placeholder',
    { data: { action: 'create', contractKey, placeholder: { name: 'fuzz', value: 'x' } } },
    auth,
  );
  const link = await t.request('/api/contract_share_link', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${(auth as { bearer: string }).bearer}` },
    body: JSON.stringify({ contractKey }),
  });
  return {
    t,
    keys: {
      API_KEY: DEMO.apiKey,
      SECRET: DEMO.secret,
      CLIENT_KEY: DEMO.clientKey,
      USER_KEY: DEMO.userKey,
      TEMPLATE_KEY: DEMO.templateKey,
      CONTRACT_KEY: contractKey,
      RECIPIENT_KEY: recipients.body.recipients[0].recipientKey,
      WEBHOOK_KEY: hooks.body.webhooks[0].webhookKey,
      PLACEHOLDER_KEY: placeholder.body.placeholder.placeholderKey,
      SHARE_LINK: link.body.shareLink.shareLink,
      CLIENT_TOKEN: await t.clientToken(),
    },
  };
}

type AuthKind = 'client' | 'platform' | 'apiKey' | 'none' | 'garbage';

export function authArbitrary(scope: Scope): fc.Arbitrary<AuthKind> {
  const usual: AuthKind = scope === 'client' ? 'client' : scope === 'platform' ? 'platform' : 'none';
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(usual) },
    { weight: 1, arbitrary: fc.constantFrom<AuthKind>('client', 'platform', 'apiKey', 'none', 'garbage') },
  );
}

export async function headersFor(t: TestSandbox, kind: AuthKind): Promise<Record<string, string>> {
  switch (kind) {
    case 'client':
      return { authorization: `Bearer ${await t.clientToken()}` };
    case 'platform':
      return { authorization: `Bearer ${await t.platformToken()}` };
    case 'apiKey':
      return { 'x-service-key': DEMO.apiKey };
    case 'garbage':
      return { authorization: 'Bearer \u00ff__proto__' };
    case 'none':
      return {};
  }
}

/** Everything a refused request must not change: the store, the clock, the outbox and the delivery log. */
export function snapshot(t: TestSandbox): string {
  const { store, clocks } = t.sandbox.services;
  const clock = clocks.sandbox;
  return JSON.stringify({
    data: store.data,
    // A running clock (after an accepted unfreeze) moves by itself: only a frozen clock's time is state a request sets.
    now: clock.isFrozen ? clock.now() : 'running',
    emails: t.sandbox.control.outbox.list().length,
    deliveries: t.sandbox.control.webhooks.deliveries().length,
  });
}

export async function send(
  t: TestSandbox,
  path: string,
  text: string,
  type: string | undefined,
  headers: Record<string, string>,
): Promise<Answer> {
  return t.request(path, {
    method: 'POST',
    headers: { ...headers, ...(type === undefined ? {} : { 'content-type': type }) },
    body: text,
  });
}

/** The contract every answer keeps, whatever was sent. */
export function expectWellFormed(res: Answer, sent: string): void {
  const context = `answer ${res.status} ${JSON.stringify(res.body).slice(0, 300)} to ${sent.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(typeof res.body, context).toBe('object');
  expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
  if (res.status >= 400) {
    expect(res.body.code, context).toBe(res.status);
    expect(typeof res.body.message, context).toBe('string');
    expect(res.body.message.length, context).toBeGreaterThan(0);
    expect(res.body.message.length, `${context}: message stays readable`).toBeLessThan(2000);
    if (res.body.errors !== undefined) {
      expect(Array.isArray(res.body.errors), context).toBe(true);
      expect(res.body.errors.length, context).toBeGreaterThan(0);
      for (const e of res.body.errors) {
        expect(typeof e.path, context).toBe('string');
        expect(typeof e.message, context).toBe('string');
        expect(e.message.length, context).toBeGreaterThan(0);
      }
    }
  }
}

export async function expectHealthy(t: TestSandbox): Promise<void> {
  const health = await t.control('/health');
  expect(health.status).toBe(200);
  expect(health.body.status).toBe('ok');
}

export const operations = resources.flatMap((resource) =>
  Object.entries(resource.actions).map(([name, action]) => ({
    label: `${resource.path} ${action.wireName ?? name}`,
    path: resource.path,
    name,
    action,
  })),
);

/** Failure reports stay readable: counterexamples can be megabytes of nesting, so they are cut short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one reporter for properties of any arity
function reporter(details: fc.RunDetails<any>): void {
  if (!details.failed) return;
  const example = fc.stringify(details.counterexample);
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} runs (seed ${details.seed}, path "${details.counterexamplePath}"; replay with FUZZ_SEED=${details.seed})\n` +
      `${cause.slice(0, 1500)}\nCounterexample: ${example.length > 1500 ? `${example.slice(0, 1500)}… (${example.length} chars)` : example}`,
  );
}

export const fuzzOptions = {
  seed: FUZZ_SEED,
  numRuns: FUZZ_RUNS,
  endOnFailure: process.env.FUZZ_SHRINK === undefined,
  reporter,
};
