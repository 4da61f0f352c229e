/**
 * The delivery log as --data keeps it (docs/persistence.md, "What is kept"): each message's body once
 * (`webhook-messages`, by `webhook-id`), the deliveries naming it; a message goes with the last delivery naming it;
 * a data file whose delivery records still carry their bodies reads as before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { dataFileEachTest } from '../support/data-file.js';
import type { TestSandbox } from '../support/helpers.js';

const data = dataFileEachTest('esign-kept-deliveries-');
const { sandbox, kill } = data;

/** Two endpoints on every `created` event, the first answering 503 once; a contract made: two deliveries of one message. */
async function twoEndpoints(t: TestSandbox): Promise<WebhookReceiver[]> {
  const rs = [await data.receiver({ rejectUnverified: false }), await data.receiver()];
  rs[0]!.failNext(1, { status: 503 });
  const auth = { bearer: await t.clientToken() };
  const webhooks = rs.map((r) => ({ url: r.url, created: true }));
  const hooks = await t.post('/api/webhook', { data: { action: 'create', webhooks } }, auth);
  for (const [i, w] of (hooks.body.webhooks as Array<{ secret: string }>).entries()) rs[i]!.useSecret(w.secret);
  const made = await t.post(
    '/api/contract',
    { data: { action: 'create', contract: { name: 'Kept', value: '<p>x</p>' } } },
    auth,
  );
  expect(made.status).toBe(201);
  await t.sandbox.services.clocks.sandbox.work.settled();
  return rs;
}

/** The data file (snapshot and journal) rewritten as before the bodies were kept apart: each delivery with its body. */
function inOlderFormat(): void {
  const snapshot = JSON.parse(readFileSync(data.file, 'utf8'));
  const bodies = new Map<string, string>(
    Object.entries(snapshot.kept['webhook-messages'] ?? {}).map(([id, m]: [string, any]) => [id, m.body]),
  );
  const withBody = (d: any) => d && { ...d, body: bodies.get(d.webhookId) };
  const lines = readFileSync(`${data.file}.journal`, 'utf8').trim().split('\n').filter(Boolean);
  const older = lines.map((line) => {
    const entry = JSON.parse(line);
    for (const [c, key, record] of entry.ops) if (c === 'webhook-messages' && record) bodies.set(key, record.body);
    entry.ops = entry.ops
      .filter(([c]: [string]) => c !== 'webhook-messages')
      .map(([c, key, record]: [string, string, any]) => [c, key, c === 'deliveries' ? withBody(record) : record]);
    return JSON.stringify(entry);
  });
  for (const [key, d] of Object.entries(snapshot.kept.deliveries ?? {})) snapshot.kept.deliveries[key] = withBody(d);
  delete snapshot.kept['webhook-messages'];
  writeFileSync(data.file, JSON.stringify(snapshot));
  writeFileSync(`${data.file}.journal`, older.map((l) => `${l}\n`).join(''));
}

/**
 * How many times the data file (snapshot and journal) holds a `contract.created` message's body, in what it keeps of
 * the delivery log: the request journal's records are left out (the answer of a read of the log shows the body too).
 */
function bodiesOnFile(): number {
  const snapshot = JSON.parse(readFileSync(data.file, 'utf8'));
  delete snapshot.kept?.requests;
  const lines = readFileSync(`${data.file}.journal`, 'utf8').split('\n').filter(Boolean);
  const ops = lines.flatMap((line) => JSON.parse(line).ops.filter(([c]: [string]) => c !== 'requests'));
  const text = JSON.stringify(snapshot) + JSON.stringify(ops);
  return text.split(String.raw`\"type\":\"contract.created\"`).length - 1;
}

describe('the delivery log on a data file', () => {
  it("writes each message's body once, however often its deliveries are; a restart sends the retry with it", async () => {
    const first = await sandbox();
    const [down, up] = await twoEndpoints(first);
    const body = up!.deliveries[0]!.body;
    const [{ webhookId }] = (await first.control('/webhook-deliveries')).body.deliveries;
    await kill(first);
    expect(bodiesOnFile()).toBe(1);

    const second = await sandbox();
    await second.control('/clock/advance', { by: '5s' });
    expect(down!.deliveries.map((d) => [d.id, d.body])).toEqual([
      [webhookId, body],
      [webhookId, body],
    ]);
    const log = (await second.control('/webhook-deliveries')).body.deliveries;
    expect(log.map((d: any) => d.status)).toEqual(['delivered', 'delivered']);
    expect(log.map((d: any) => d.payload)).toEqual([JSON.parse(body), JSON.parse(body)]);
  });

  it('keeps a message while a delivery names it, and lets it go with the last (a snapshot shows both)', async () => {
    const t = await sandbox();
    await twoEndpoints(t);
    const kept = async () => (await t.control('/state')).body.kept;
    const before = await kept();
    expect(Object.keys(before['webhook-messages'])).toHaveLength(1);
    expect(Object.values(before.deliveries).map((d: any) => d.webhookId)).toEqual(
      Array(2).fill(Object.keys(before['webhook-messages'])[0]),
    );
    await t.control('/reset', {});
    expect(await kept()).toMatchObject({ 'webhook-messages': {}, deliveries: {} });
    await kill(t);
    const again = await sandbox();
    expect((await again.control('/state')).body.kept).toMatchObject({ 'webhook-messages': {}, deliveries: {} });
  });

  it('reads a data file whose delivery records carry their bodies (written before they were kept apart)', async () => {
    const first = await sandbox();
    const [down] = await twoEndpoints(first);
    await kill(first);
    inOlderFormat();
    expect(bodiesOnFile()).toBeGreaterThanOrEqual(2);

    const second = await sandbox();
    await second.control('/clock/advance', { by: '5s' });
    expect(down!.deliveries).toHaveLength(2);
    expect(down!.deliveries[1]!.body).toBe(down!.deliveries[0]!.body);
    const kept = (await second.control('/state')).body.kept;
    expect(Object.keys(kept['webhook-messages'])).toEqual([down!.deliveries[0]!.id]);
    expect(Object.values(kept.deliveries).map((d: any) => d.body)).toEqual([undefined, undefined]);
  });
});
