/**
 * The sandbox's MCP server (docs/mcp.md), driven by the SDK's own client: over stdio (`esign-sandbox mcp --url`, the
 * compiled CLI) and over Streamable HTTP (`/__sandbox/mcp`). Its tools are the control table's, with input schemas;
 * a coding agent makes a tenant, moves its clock, acts as a recipient, reads deliveries, loads a scenario; a bad
 * input or a refusal is a tool error with the control API's message.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, type WebhookReceiver, createWebhookReceiver, startSandbox } from '../../src/index.js';
import { mcpTools } from '../../src/mcp/tools.js';
import { ROOT } from '../support/ci-kit.js';
import { ensureBuilt } from '../support/cli-process.js';

const REQUIRED = [
  'create_tenant',
  'advance_clock',
  'inspect_contract',
  'act_as_recipient',
  'list_deliveries',
  'load_scenario',
  'scenario_status',
  'reset',
  'report',
];

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ clock: 'frozen' });
  receiver = await createWebhookReceiver();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await sandbox?.close();
});

type Answer = { isError?: boolean; content: { type: string; text: string }[] };
const text = (answer: unknown) => (answer as Answer).content[0]!.text;
const json = (answer: unknown) => JSON.parse(text(answer)) as any;

/** The default tenant's contract, sent to one signer, with a webhook to the receiver: what an agent then drives. */
async function sentContract(): Promise<{ contractKey: string; recipientKey: string }> {
  const post = async (path: string, data: unknown) => {
    const res = await fetch(`${sandbox.url}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey! },
      body: JSON.stringify({ data: { clientKey: sandbox.clientKey, ...(data as object) } }),
    });
    return (await res.json()) as any;
  };
  await post('webhook', { action: 'create', webhooks: [{ url: receiver.url, fullySigned: true }] });
  const { contract } = await post('contract', { action: 'create', contract: { name: 'Agent NDA', value: '<p>x</p>' } });
  const recipients = [{ fullname: 'Ada Agent', email: 'ada@example.com', action: 'sign', position: 1 }];
  await post('recipient', { action: 'send', contractKey: contract.contractKey, recipients });
  const { recipients: list } = await post('recipient', { action: 'list', contractKey: contract.contractKey });
  return { contractKey: contract.contractKey, recipientKey: list[0].recipientKey };
}

/** What an agent does with the tools, the same over either transport. */
async function agentSession(client: Client) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(REQUIRED));
  // As the server lists them: every tool of the control table (test/mcp/tools.test.ts), with its schema and description.
  expect(names).toEqual(mcpTools().map((tool) => tool.name));
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.description?.length).toBeGreaterThan(10);
  }
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  expect(Object.keys(byName.advance_clock!.inputSchema.properties!)).toEqual(expect.arrayContaining(['by', 'apiKey']));
  expect(byName.act_as_recipient!.inputSchema).toMatchObject({
    required: expect.arrayContaining(['recipientKey', 'verb']),
    properties: { verb: { enum: ['view', 'sign', 'approve', 'lock'] } },
  });

  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  const tenant = json(await call('create_tenant', { name: 'agent', clock: 'frozen', start: '2026-03-01T09:00:00Z' }));
  expect(tenant.apiKey).toEqual(expect.any(String));
  const advanced = json(await call('advance_clock', { apiKey: tenant.apiKey, by: '2d' }));
  expect(advanced.now).toBe('2026-03-03T09:00:00.000Z');

  const { contractKey, recipientKey } = await sentContract();
  const signed = await call('act_as_recipient', { recipientKey, verb: 'sign' });
  expect(signed.isError ?? false).toBe(false);
  const inspected = await call('inspect_contract', { contractKey });
  if ((inspected as Answer).isError) throw new Error(text(inspected));
  expect(json(inspected).status).toBe('Fully signed');
  await receiver.waitFor((all) =>
    all.some((d) => d.payload?.type === 'contract.fully_signed' && d.payload.data?.contractKey === contractKey),
  );
  const deliveries = json(await call('list_deliveries', { contractKey }));
  expect(deliveries.deliveries.map((d: { event: string }) => d.event)).toContain('contract.fully_signed');

  const loaded = await call('load_scenario', { name: 'flaky-api', apiKey: tenant.apiKey });
  if ((loaded as Answer).isError) throw new Error(text(loaded));
  expect(json(loaded)).toMatchObject({
    name: 'flaky-api',
  });
  expect(json(await call('scenario_status', { name: 'flaky-api', apiKey: tenant.apiKey }))).toMatchObject({
    name: 'flaky-api',
  });
  await call('unload_scenario', { name: 'flaky-api', apiKey: tenant.apiKey });

  // Refusals and bad inputs: tool errors carrying the control API's message; the server goes on.
  const bad = (await call('advance_clock', { apiKey: tenant.apiKey, by: 'soon' })) as Answer;
  expect(bad.isError).toBe(true);
  const direct = await fetch(`${sandbox.url}/__sandbox/platforms/${tenant.apiKey}/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ by: 'soon' }),
  });
  expect(direct.status).toBe(400);
  expect(text(bad)).toBe(((await direct.json()) as { message: string }).message);
  const twice = (await call('act_as_recipient', { recipientKey, verb: 'sign' })) as Answer;
  expect(twice).toMatchObject({ isError: true });
  expect(text(twice).length).toBeGreaterThan(5);
  expect(await call('act_as_recipient', { recipientKey, verb: 'dance' })).toMatchObject({ isError: true });
  expect(await call('advance_clock', { apiKey: 'no-such-tenant', by: '1m' })).toMatchObject({ isError: true });
  expect(await call('create_tenant', { apiKey: '../other' })).toMatchObject({ isError: true });
  // The readiness report of the default tenant's traffic, as GET /__sandbox/report gives it.
  expect(json(await call('report', { apiKey: sandbox.apiKey }))).toMatchObject({ verdict: expect.any(String) });
  expect(text(await call('report', { apiKey: sandbox.apiKey, format: 'markdown' }))).toMatch(/^#/m);
  expect(json(await call('reset', { apiKey: tenant.apiKey }))).toBeTruthy();
}

describe('the MCP server', () => {
  it('over stdio (esign-sandbox mcp --url), driven by the SDK client', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'dist', 'cli.js'), 'mcp', '--url', sandbox.url],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      await agentSession(client);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('over Streamable HTTP at /__sandbox/mcp, driven by the SDK client', async () => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.url}/__sandbox/mcp`)));
    try {
      await agentSession(client);
    } finally {
      await client.close();
    }
  }, 60_000);
});
