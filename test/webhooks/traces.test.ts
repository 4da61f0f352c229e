/**
 * Traces (docs/webhooks.md, "Traces"): an /api request's W3C traceparent is carried into the webhook deliveries it
 * causes (same trace, a new span per attempt, retries included), shown in the journal and the delivery log; none is
 * invented while tracing is off; with an OTLP endpoint, the spans of the request and of each attempt reach an OTLP
 * receiver (a stand-in below, as a collector receives OTLP/HTTP JSON).
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, type WebhookReceiver, createWebhookReceiver, startSandbox } from '../../src/index.js';
import { tracesUrl } from '../../src/wiring/tracing.js';

const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
const TRACEPARENT = `00-${CALLER.traceId}-${CALLER.spanId}-01`;
const SPAN = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** A sandbox, a receiver subscribed to `created` events, and a create with the given headers. */
async function world(options: { otlpEndpoint?: string } = {}) {
  const sandbox = await startSandbox({ clock: 'frozen', ...options });
  const receiver = await createWebhookReceiver();
  open.push(sandbox, receiver);
  const headers = { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey! };
  const hook = await fetch(`${sandbox.url}/api/webhook`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      data: { action: 'create', clientKey: sandbox.clientKey, webhooks: [{ url: receiver.url, created: true }] },
    }),
  });
  receiver.useSecret(((await hook.json()) as { webhooks: { secret: string }[] }).webhooks[0]!.secret);
  const create = (extra: Record<string, string> = {}) =>
    fetch(`${sandbox.url}/api/contract`, {
      method: 'POST',
      headers: { ...headers, ...extra },
      body: JSON.stringify({
        data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: 'Traced', value: '<p>x</p>' } },
      }),
    });
  return { sandbox, receiver, create };
}

const lastJournal = async (sandbox: RunningSandbox) => (await sandbox.requests({ path: '/api/contract' })).at(-1)!;
const received = (receiver: WebhookReceiver) => receiver.deliveries.map((d) => d.headers.traceparent);

describe('a traceparent on an /api request', () => {
  it('is carried into the delivery and its retry: the same trace, a new span per attempt', async () => {
    const { sandbox, receiver, create } = await world();
    receiver.failNext(1, { status: 503 });
    await create({ traceparent: TRACEPARENT, tracestate: 'team=1' });
    await receiver.waitFor(1);
    await sandbox.clock.advance('5s');
    await receiver.waitFor(2);
    const [first, retry] = received(receiver).map((header) => SPAN.exec(header ?? '')!);
    expect([first![1], retry![1]]).toEqual([CALLER.traceId, CALLER.traceId]);
    expect(new Set([first![2], retry![2], CALLER.spanId]).size).toBe(3);
    expect(receiver.deliveries.map((d) => d.headers.tracestate)).toEqual(['team=1', 'team=1']);
    // Shown in the journal (the request's trace) and the delivery log (each attempt's traceparent).
    expect((await lastJournal(sandbox)).trace).toEqual({ traceparent: TRACEPARENT, tracestate: 'team=1' });
    const [delivery] = await sandbox.webhooks.deliveries({ event: 'contract.created' });
    expect(delivery).toMatchObject({ traceId: CALLER.traceId, status: 'delivered' });
    expect(delivery!.attempts.map((a) => a.traceparent)).toEqual(received(receiver));
  });

  it.each([
    ['no traceparent', {}],
    ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-${CALLER.spanId}-01` }],
    ['a malformed one', { traceparent: `00-${CALLER.traceId}-xyz-01` }],
    ['version ff', { traceparent: `ff-${CALLER.traceId}-${CALLER.spanId}-01` }],
  ])('with %s, while tracing is off: no trace is invented', async (_case, headers) => {
    const { sandbox, receiver, create } = await world();
    await create(headers);
    await receiver.waitFor(1);
    expect(received(receiver)).toEqual([undefined]);
    expect((await lastJournal(sandbox)).trace).toBeUndefined();
    const [delivery] = await sandbox.webhooks.deliveries({ event: 'contract.created' });
    expect(delivery!.traceId).toBeUndefined();
  });
});

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP receiver stand-in: keeps every span of every POST /v1/traces (OTLP JSON, ids in hex). */
async function otlpReceiver() {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const r of parsed.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  open.push({ close: () => new Promise((done) => server.close(done)) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, paths };
}

describe('tracing on: an OTLP endpoint', () => {
  it('exports the /api span and a span per delivery attempt, each attempt a child of the request', async () => {
    const otlp = await otlpReceiver();
    const { sandbox, receiver, create } = await world({ otlpEndpoint: otlp.url });
    receiver.failNext(1, { status: 503 });
    await create({ traceparent: TRACEPARENT });
    await receiver.waitFor(1);
    await sandbox.clock.advance('5s');
    await receiver.waitFor(2);
    const sent = received(receiver).map((header) => SPAN.exec(header ?? '')!);
    const request = (await lastJournal(sandbox)).trace!.traceparent;
    await sandbox.close(); // flushes the batch
    expect(otlp.paths.every((p) => p.startsWith('POST /v1/traces application/json'))).toBe(true);
    const server = otlp.spans.find((s) => s.name === 'POST /api/contract')!;
    expect(server).toMatchObject({ traceId: CALLER.traceId, parentSpanId: CALLER.spanId, kind: 2 });
    expect(request).toBe(`00-${CALLER.traceId}-${server.spanId}-01`);
    const attempts = otlp.spans.filter((s) => s.name === 'webhook contract.created');
    expect(attempts.map((s) => [s.traceId, s.parentSpanId, s.spanId, s.kind])).toEqual(
      sent.map((m) => [CALLER.traceId, server.spanId, m[2], 3]),
    );
    const status = (s: OtlpSpan) => s.attributes.find((a) => a.key === 'http.response.status_code')?.value;
    expect(attempts.map(status)).toEqual([{ intValue: 503 }, { intValue: 200 }]);
  });

  it('starts a trace for a request that has none, and its deliveries carry it', async () => {
    const otlp = await otlpReceiver();
    const { sandbox, receiver, create } = await world({ otlpEndpoint: otlp.url });
    await create();
    await receiver.waitFor(1);
    const [, traceId, spanId] = SPAN.exec(received(receiver)[0] ?? '')!;
    await sandbox.close();
    const server = otlp.spans.find((s) => s.name === 'POST /api/contract')!;
    expect(server.parentSpanId ?? '').toBe('');
    expect(otlp.spans.find((s) => s.spanId === spanId)).toMatchObject({ traceId, parentSpanId: server.spanId });
    expect(server.traceId).toBe(traceId);
  });
});

describe('the OTLP endpoint', () => {
  it.each([
    [undefined, {}, undefined],
    [undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }, 'http://c:4318/v1/traces'],
    [undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/t' }, 'http://c:4318/t'],
    [
      undefined,
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://d/t' },
      'http://d/t',
    ],
    ['http://o:4318', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://d/t' }, 'http://o:4318/v1/traces'],
  ])('option %s with %j: spans go to %s', (option, env, url) => {
    expect(tracesUrl(option, env)).toBe(url);
  });
});
