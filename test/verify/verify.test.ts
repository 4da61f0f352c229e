/**
 * `esign-sandbox verify` against targets whose answers we know: a second sandbox (every step the same, exit 0),
 * and a stand-in that alters a second sandbox's answers in six known ways (exactly those drifts, exit 1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { type StandIn, readJson, standIn, targetArgs, verify } from '../support/verify-kit.js';

const dir = mkdtempSync(join(tmpdir(), 'esign-verify-'));
let second: RunningSandbox;

beforeAll(async () => {
  second = await startSandbox();
});
afterAll(async () => {
  await second.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('verify against a second sandbox', () => {
  it('finds every step the same and exits 0, with the JSON document in the documented format', async () => {
    const json = join(dir, 'same.json');
    const run = await verify([...targetArgs(second), '--json', json]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const result = readJson(json);
    expect(Object.keys(result)).toEqual(['target', 'steps', 'summary']);
    expect(result.target).toBe(second.url);
    expect(result.summary).toEqual({ steps: result.steps.length, drifts: 0 });
    for (const step of result.steps) {
      expect(Object.keys(step)).toEqual(['name', 'path', 'action', 'drifts']);
      expect(step.drifts).toEqual([]);
    }
    // Every resource of the service has its steps; the recipient flow is not among them without --send.
    const names = result.steps.map((s: { name: string }) => s.name);
    for (const name of [
      'token create (platform)',
      'token create (client)',
      'client create',
      'client read',
      'client list',
      'user list',
      'user create',
      'template create',
      'template delete',
      'contract create',
      'contract read',
      'contract list',
      'contract update',
      'contract archive',
      'placeholder create',
      'placeholder list',
      'placeholder update',
      'placeholder delete',
      'webhook create',
      'webhook list',
      'webhook delete',
      'settings email_notifications',
      'unknown action',
      'missing required field',
      'bad token',
      'revoked token',
      'token revoke (platform)',
    ])
      expect(names).toContain(name);
    expect(names.some((n: string) => n.startsWith('recipient'))).toBe(false);
    expect(run.out).toMatch(/\d+ steps, 0 with drift \(0 drifts\)\./);
  });

  it('works inside a client of its own and cleans up what it made there, saying what stays', async () => {
    const run = await verify([...targetArgs(second), '--only', 'contract,template,webhook,placeholder']);
    expect(run.code).toBe(0);
    const name = /in the client "(esign-sandbox verify [\d-]+ [\d:]+)"/.exec(run.out)![1]!;
    const token = (await (
      await fetch(`${second.url}/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { action: 'create', apiKey: second.apiKey, secret: second.secret } }),
      })
    ).json()) as { access_token: string };
    const post = async (entity: string, data: object) =>
      (await (
        await fetch(`${second.url}/api/${entity}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
          body: JSON.stringify({ data }),
        })
      ).json()) as any;
    // Earlier runs in this file may have made a client of the same name in the same second: the report's key says which.
    const clientKey = /Left on the target: .*the client "[^"]+" \((\w+)\) and its users/.exec(run.out)![1]!;
    const clients = (await post('client', { action: 'list' })).clients as { fullname: string; clientKey: string }[];
    expect(clients.find((c) => c.clientKey === clientKey)?.fullname).toBe(name);
    expect((await post('contract', { action: 'list', clientKey })).contracts).toEqual([]);
    expect((await post('template', { action: 'list', clientKey })).templates).toEqual([]);
    expect((await post('webhook', { action: 'list', clientKey })).webhooks).toEqual([]);
    expect(run.out).toContain(`Left on the target: archived contracts stay archived`);
    expect(run.out).toContain(`the client "${name}" (${clientKey}) and its users`);
  });
});

describe('verify against a stand-in that alters a second sandbox', () => {
  let target: StandIn;
  beforeAll(async () => {
    target = await standIn(second, {
      // a number made a string
      '/api/contract read': (b) => {
        b.contract.statusId = String(b.contract.statusId);
      },
      // a field dropped (the error answers of the same path have no contracts to drop it from)
      '/api/contract list': (b) => {
        for (const c of b.contracts ?? []) delete c.status;
      },
      // a field added
      '/api/client read': (b) => {
        b.client.region = 'eu';
      },
      // a time format changed
      '/api/user read': (b) => {
        b.user.createTime = `${b.user.createTime.replace(' ', 'T')}.000Z`;
      },
      // a message reworded
      '/api/template read': (b) => {
        b.message = 'Template read';
      },
      // a status changed
      '/api/webhook list': () => 200,
    });
  });
  afterAll(() => target.close());

  it('reports exactly those drifts at exactly those paths, and exits 1', async () => {
    const json = join(dir, 'drift.json');
    const run = await verify([...targetArgs(target), '--json', json]);
    expect(run.code).toBe(1);
    const result = readJson(json);
    const drifted = result.steps
      .filter((s: { drifts: unknown[] }) => s.drifts.length)
      .map((s: any) => [s.name, s.path, s.action, s.drifts]);
    // Each step that drifted: its name, path and action, and its drifts (where, the sandbox's kind, the target's).
    const drift = (path: string, sandbox: string, target: string) => [{ path, sandbox, target }];
    expect(drifted).toEqual([
      ['client read', '/api/client', 'read', drift('client.region', 'absent', 'string')],
      ['user read', '/api/user', 'read', drift('user.createTime', 'SQL time', 'ISO time')],
      ['template read', '/api/template', 'read', drift('message', '"Template found"', '"Template read"')],
      ['contract read', '/api/contract', 'read', drift('contract.statusId', 'number', 'numeric string')],
      ['contract list', '/api/contract', 'list', drift('contracts[].status', 'string', 'absent')],
      ['webhook list', '/api/webhook', 'list', drift('status', 'HTTP 201', 'HTTP 200')],
    ]);
    expect(result.summary.drifts).toBe(6);
    expect(run.out).toContain('  contracts[].status: sandbox string / target absent');
    expect(run.out).toContain('  status: sandbox HTTP 201 / target HTTP 200');
    expect(run.out).toMatch(/\d+ steps, 6 with drift \(6 drifts\)\./);
  });
});
