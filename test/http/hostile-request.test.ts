/**
 * Refused requests leave the store as it was, and the edges a hostile client probes first (split from errors.test.ts).
 */

import { describe, expect, it } from 'vitest';
import { sandboxEachTest } from '../support/helpers.js';
import { json, refusalKit } from '../support/refusal-kit.js';

const t = sandboxEachTest();

const { sentContract } = refusalKit(() => t);

describe('refused requests change nothing', () => {
  it('a contract create-and-send naming an unknown recipient creates no contract', async () => {
    const auth = await t.demoAuth();
    const before = JSON.stringify(t.sandbox.services.store.data);
    const res = await t.post(
      '/api/contract',
      {
        data: {
          action: 'create',
          contract: { name: 'C', value: 'x' },
          recipients: [{ email: 'a@example.com' }, { recipientKey: 'nope' }],
        },
      },
      auth,
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Recipient not found');
    expect(JSON.stringify(t.sandbox.services.store.data)).toBe(before);
  });

  it('a send that names a recipient who already acted changes no other recipient', async () => {
    const { contractKey, recipientKey } = await sentContract();
    const { store, clocks } = t.sandbox.services;
    const clock = clocks.sandbox;
    // The recipient simulation lives in its own module; marking the act directly keeps this test about refusal.
    store.recipients.update(recipientKey, { actedAt: clock.now() });
    const auth = await t.demoAuth();
    const before = JSON.stringify(store.data);
    const res = await t.post(
      '/api/recipient',
      {
        data: {
          action: 'send',
          contractKey,
          recipients: [{ email: 'new@example.com' }, { recipientKey, fullname: 'Changed' }],
        },
      },
      auth,
    );
    expect(res.status).toBe(409);
    expect(JSON.stringify(store.data)).toBe(before);
  });
});

describe('first contact and the edges a hostile client probes', () => {
  it('GET /__sandbox points to the dashboard, the API, the control API and the docs; GET / leads to the dashboard', async () => {
    const res = await t.request('/__sandbox');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'esign-sandbox',
      dashboard: expect.stringMatching(/\/__sandbox\/ui$/),
      api: expect.stringMatching(/\/api$/),
      control: expect.stringMatching(/\/__sandbox$/),
      docs: expect.stringMatching(/\/docs$/),
    });
    const root = await t.request('/');
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/__sandbox/ui');
  });

  it.each([
    ['DELETE', '/__sandbox/health', 'GET'],
    ['GET', '/__sandbox/reset', 'POST'],
    ['PUT', '/__sandbox/recipients/R1/sign', 'POST'],
    ['POST', '/__sandbox/faults/f1', 'DELETE'],
  ])('answers %s on %s with 405 and Allow: %s, as /api does', async (method, path, allow) => {
    const res = await t.request(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.body.message).toMatch(
      new RegExp(`^Method ${method} is not allowed on ${path.replace(/\//g, '\\/')}; use ${allow}`),
    );
  });

  it.each([
    ['a delivery id', () => t.request(`/__sandbox/webhook-deliveries/${'d'.repeat(5000)}`)],
    ['a scenario name', () => t.request(`/__sandbox/scenarios/${'s'.repeat(5000)}`)],
    ['a fault id', () => t.request(`/__sandbox/faults/${'f'.repeat(5000)}`, { method: 'DELETE' })],
    ['a verb', () => t.control(`/recipients/R1/${'v'.repeat(5000)}`, {})],
    ['an unknown path', () => t.request(`/${'p'.repeat(5000)}`)],
  ])('echoes at most a short piece of %s and answers at most 1,000 characters', async (_what, send) => {
    const res = await send();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.message.length).toBeLessThanOrEqual(1000);
    expect(res.body.message).not.toMatch(/(.)\1{250}/);
  });

  it('cuts a message over 1,000 characters to exactly 1,000', async () => {
    const { ApiError } = await import('../../src/core/errors.js');
    expect(new ApiError(400, 'x'.repeat(5000)).toBody().message).toHaveLength(1000);
  });

  it('names a snapshot token record by its place, never by the token (it is a secret)', async () => {
    const snapshot = (await t.request('/__sandbox/state')).body;
    snapshot.store.tokens = {
      secretTokenValue123: {
        token: 'secretTokenValue123',
        kind: 'platform',
        platformId: 'nope',
        issuedAt: 0,
        expiresAt: 'soon',
      },
    };
    const res = await t.request('/__sandbox/state', { method: 'PUT', headers: json, body: JSON.stringify(snapshot) });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('secretTokenValue123');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'store.tokens.[token #1].expiresAt' })]),
    );
  });

  it('answers an Expect header it cannot meet with a JSON 417 naming it', async () => {
    const { startSandbox } = await import('../../src/index.js');
    const sandbox = await startSandbox();
    try {
      const { request } = await import('node:http');
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          `${sandbox.url}/api/contract`,
          { method: 'POST', headers: { expect: '200-ok', 'content-type': 'application/json' } },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
      expect(answer.status).toBe(417);
      expect(JSON.parse(answer.body)).toEqual({
        code: 417,
        message:
          'Expect: 200-ok cannot be met; send the request without an Expect header, or with Expect: 100-continue',
      });
    } finally {
      await sandbox.close();
    }
  });
});
