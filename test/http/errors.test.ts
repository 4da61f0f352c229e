/**
 * Every refusal of docs/errors.md as a table: bad input → status and a fragment of the message. Also the
 * regressions the fuzzer found (echoed megabyte keys, a clock pushed past what a date can print, a million
 * field errors in one answer, refused requests that changed state).
 */

import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox.js';
import { type Answer, DEMO, FROZEN, testSandbox, sandboxEachTest } from '../support/helpers.js';
import { json, refusalKit } from '../support/refusal-kit.js';

const t = sandboxEachTest();

const { raw, asClient, sentContract, otherClientContract } = refusalKit(() => t);

interface Case {
  name: string;
  send: () => Promise<Answer>;
  status: number;
  message: string | RegExp;
  /** Paths that must all be listed in `errors`. */
  paths?: string[];
}

const cases: Case[] = [
  // 400: the body itself
  {
    name: 'a body that is not JSON',
    send: () => raw('/api/contract', '{"data": '),
    status: 400,
    message: 'Request body is not valid JSON',
  },
  {
    name: 'a JSON array',
    send: () => raw('/api/contract', '[{"data": {}}]'),
    status: 400,
    message: 'must be a JSON object, not an array',
  },
  {
    name: 'a JSON string',
    send: () => raw('/api/contract', '"data"'),
    status: 400,
    message: 'must be a JSON object, not a string',
  },
  {
    name: 'JSON null',
    send: () => raw('/api/contract', 'null'),
    status: 400,
    message: 'must be a JSON object, not null',
  },
  { name: 'an empty body', send: () => raw('/api/contract', ''), status: 400, message: 'Request body is empty' },
  {
    name: 'a body with a byte-order mark',
    send: () => raw('/api/contract', '\ufeff{"data": {"action": "list"}}'),
    status: 401,
    message: 'Missing credentials',
  },
  {
    name: 'no "data" wrapper',
    send: () => asClient('/api/contract', { action: 'list' }),
    status: 400,
    message: 'object named "data" (it is missing)',
    paths: ['data'],
  },
  {
    name: '"data" that is an array',
    send: () => asClient('/api/contract', { data: [{ action: 'list' }] }),
    status: 400,
    message: 'got an array',
    paths: ['data'],
  },
  {
    name: 'a validation failure, listing every failing field',
    send: () =>
      asClient('/api/contract', {
        data: {
          action: 'create',
          contract: { name: 1, value: '<p/>' },
          recipients: [{ email: 'not-an-email', position: -1, action: 'dance' }],
        },
      }),
    status: 400,
    message: 'Invalid request: data.contract.name',
    paths: ['data.contract.name', 'data.recipients.0.email', 'data.recipients.0.position', 'data.recipients.0.action'],
  },
  {
    name: 'an unknown action, naming the valid ones',
    send: () => asClient('/api/contract', { data: { action: 'explode' } }),
    status: 400,
    message:
      'Unknown action "explode" for /api/contract; valid actions: list, create, read, update, duplicate, archive',
    paths: ['data.action'],
  },
  {
    name: 'a missing action',
    send: () => asClient('/api/recipient', { data: {} }),
    status: 400,
    message: 'data.action is required; valid actions for /api/recipient: list, create, send, update, delete',
  },
  {
    name: 'an unknown settings type',
    send: () => asClient('/api/settings', { data: { type: 'sms' } }),
    status: 400,
    message: 'Unknown type "sms" for /api/settings; valid types: email_notifications, brandings',
  },
  // 401
  {
    name: 'no credentials',
    send: () => t.post('/api/contract', { data: { action: 'list' } }),
    status: 401,
    message: 'Missing credentials',
  },
  {
    name: 'an unknown token',
    send: () => t.post('/api/contract', { data: { action: 'list' } }, { bearer: 'nope' }),
    status: 401,
    message: 'Invalid access token',
  },
  {
    name: 'a malformed Authorization header',
    send: () => raw('/api/contract', '{"data":{"action":"list"}}', { ...json, authorization: 'Basic abc' }),
    status: 401,
    message: 'Bearer <access_token>',
  },
  {
    name: 'a wrong API key header',
    send: () => t.post('/api/contract', { data: { action: 'list', clientKey: DEMO.clientKey } }, { apiKey: 'nope' }),
    status: 403,
    message: 'Invalid API key',
  },
  {
    name: 'a wrong secret',
    send: () => t.post('/api/token', { data: { action: 'create', apiKey: DEMO.apiKey, secret: 'x' } }),
    status: 401,
    message: 'Invalid API key or secret',
  },
  {
    name: 'a revoked token',
    send: async () => {
      const token = await t.clientToken();
      await t.post('/api/token', { action: 'revoke', access_token: token }, { bearer: await t.platformToken() });
      return t.post('/api/contract', { data: { action: 'list' } }, { bearer: token });
    },
    status: 401,
    message: 'Token revoked',
  },
  {
    name: 'an expired token',
    send: async () => {
      const auth = await t.demoAuth();
      await t.control('/clock/advance', { by: '30m' });
      return t.post('/api/contract', { data: { action: 'list' } }, auth);
    },
    status: 401,
    message: /^Token expired$/,
  },
  // 403
  {
    name: "a client token naming another client's key",
    send: async () =>
      asClient('/api/contract', { data: { action: 'list', clientKey: (await otherClientContract()).clientKey } }),
    status: 403,
    message: 'This client token belongs to another client',
  },
  {
    name: 'a client token creating a client',
    send: () => asClient('/api/client', { data: { action: 'create', client: { fullname: 'X' } } }),
    status: 403,
    message: 'use a platform token',
  },
  // 404
  {
    name: 'an unknown contract key',
    send: () => asClient('/api/contract', { data: { action: 'archive', contract: { contractKey: 'nope' } } }),
    status: 404,
    message: /^Contract not found$/,
  },
  {
    name: "another client's contract key",
    send: async () =>
      asClient('/api/recipient', { data: { action: 'list', contractKey: (await otherClientContract()).contractKey } }),
    status: 404,
    message: /^Contract not found$/,
  },
  {
    name: "another platform's client key",
    send: async () => {
      const other = await t.control('/platforms', {});
      const token = await t.platformToken({ apiKey: other.body.apiKey, secret: other.body.secret });
      return t.post('/api/contract', { data: { action: 'list', clientKey: DEMO.clientKey } }, { bearer: token });
    },
    status: 404,
    message: /^Client not found$/,
  },
  {
    name: 'an unknown template key',
    send: () => asClient('/api/template', { data: { action: 'read', template: { templateKey: 'nope' } } }),
    status: 404,
    message: /^Template not found$/,
  },
  {
    name: 'an unknown /api path',
    send: () => t.post('/api/contracts', { data: {} }),
    status: 404,
    message: 'the API paths are /api/token',
  },
  { name: 'an unknown path', send: () => t.request('/nope'), status: 404, message: 'No such path: GET /nope' },
  {
    name: 'an unknown control path',
    send: () => t.control('/nope', {}),
    status: 404,
    message: 'No such path: POST /__sandbox/nope',
  },
  // 405, 409, 415
  {
    name: 'GET on an /api path',
    send: () => t.request('/api/contract'),
    status: 405,
    message: 'Method GET is not allowed on /api/contract',
  },
  {
    name: 'PUT on an /api path',
    send: () => t.request('/api/token', { method: 'PUT', headers: json, body: '{}' }),
    status: 405,
    message: 'every operation is a POST',
  },
  {
    name: 'sending an archived contract',
    send: async () => {
      const { contractKey } = await sentContract();
      await asClient('/api/contract', { data: { action: 'archive', contract: { contractKey } } });
      return asClient('/api/recipient', { data: { action: 'send', contractKey } });
    },
    status: 409,
    message: 'Contract is archived',
  },
  {
    name: 'a text/plain body',
    send: () => raw('/api/contract', '{"data":{}}', { 'content-type': 'text/plain' }),
    status: 415,
    message: 'Content-Type must be application/json (got "text/plain")',
  },
  { name: 'no content type', send: () => raw('/api/contract', '{"data":{}}', {}), status: 415, message: '(got none)' },
  {
    name: 'a form body',
    send: () => raw('/api/token', 'action=create', { 'content-type': 'application/x-www-form-urlencoded' }),
    status: 415,
    message: 'must be application/json',
  },
  // Regressions found by the fuzzer
  {
    name: 'a megabyte clientKey (refused by its length, docs/errors.md limits)',
    send: () => asClient('/api/contract', { data: { action: 'list', clientKey: '😀'.repeat(300_000) } }),
    status: 400,
    message: /^data\.clientKey is too long: 600000 characters, the limit is 500/,
    paths: ['data.clientKey'],
  },
  {
    name: 'a megabyte webhook key (refused by its length, docs/errors.md limits)',
    send: () =>
      asClient('/api/webhook', { data: { action: 'delete', webhooks: [{ webhookKey: 'k'.repeat(1_000_000) }] } }),
    status: 400,
    message: /^data\.webhooks\.0\.webhookKey is too long: 1000000 characters, the limit is 500/,
    paths: ['data.webhooks.0.webhookKey'],
  },
  {
    name: 'a clock advance past year 9999',
    send: () => t.control('/clock/advance', { by: 1e30 }),
    status: 400,
    message: 'would move the clock past 9999-12-31T23:59:59.999Z',
    paths: ['by'],
  },
  {
    name: 'a clock advance of 1e308 seconds',
    send: () => t.control('/clock/advance', { by: 1e308 }),
    status: 400,
    message: 'Cannot read duration',
    paths: ['by'],
  },
  {
    name: 'a clock advance by a huge duration string',
    send: () => t.control('/clock/advance', { by: '99999999999999999999d' }),
    status: 400,
    message: 'would move the clock past',
  },
  {
    name: 'a clock set to epoch 1e20',
    send: () => t.control('/clock/set', { to: 1e20 }),
    status: 400,
    message: 'outside the years 0000 to 9999',
    paths: ['to'],
  },
  {
    name: 'a clock set to year 275760',
    send: () => t.control('/clock/set', { to: '+275760-09-13T00:00:00.000Z' }),
    status: 400,
    message: 'outside the years 0000 to 9999',
  },
  {
    name: 'a clock set to a megabyte string',
    send: () => t.control('/clock/set', { to: 'x'.repeat(1_000_000) }),
    status: 400,
    message: /^Cannot read time "x{60}…"/,
  },
  {
    // The fuzzer's million field errors, at 90,000: the same path (every error counted, 100 listed), 11× cheaper.
    name: '90,000 failing fields (the first 100 listed, the count given)',
    send: async () => {
      const { contractKey, recipientKey } = await sentContract();
      const item = {
        placeholderKey: `${recipientKey}_4`,
        isSpecial: true,
        specialType: 4,
        insertion: Array(300).fill(1),
      };
      return asClient('/api/placeholder', {
        data: { action: 'update', contractKey, placeholders: Array(300).fill(item) },
      });
    },
    status: 400,
    message: 'the first 100 of 90000 are listed',
  },
];

describe('refusals (docs/errors.md)', () => {
  it.each(cases)('$name → $status', async ({ send, status, message, paths }) => {
    const res = await send();
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.code).toBe(status);
    if (typeof message === 'string') expect(res.body.message).toContain(message);
    else expect(res.body.message).toMatch(message);
    expect(res.body.message.length).toBeLessThanOrEqual(1001);
    for (const path of paths ?? []) expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    if (res.body.errors) expect(res.body.errors.length).toBeLessThanOrEqual(100);
    const health = await t.control('/health');
    expect(health.status).toBe(200);
  });

  it('answers 405 with an Allow header', async () => {
    const res = await t.request('/api/contract', { method: 'DELETE' });
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers 413 over the configured body limit, before reading the body', async () => {
    const small = await testSandbox({ ...FROZEN, maxBody: '1kb' });
    try {
      const res = await small.post('/api/contract', { data: { action: 'list', pad: 'x'.repeat(2000) } });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ code: 413, message: 'Request body is larger than the limit of 1024 bytes' });
      expect((await small.control('/clock/advance', { by: 'x'.repeat(2000) })).status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('refuses a start time the clock cannot show', async () => {
    await expect(createSandbox({ clock: 'frozen', start: 1e20 })).rejects.toThrow(
      'start must lie in the years 0000 to 9999',
    );
  });

  it('leaves the clock where it was after refusing an advance', async () => {
    const before = (await t.control('/clock')).body.now;
    await t.control('/clock/advance', { by: 1e30 });
    expect((await t.control('/clock')).body.now).toBe(before);
  });
});
