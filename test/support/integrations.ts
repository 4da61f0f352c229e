/**
 * Two integrations of the service, as a platform team would write them, for the readiness report's tests
 * (docs/readiness.md): a careful one (reuses its token and gets a new one after a 401 says it expired, waits out
 * Retry-After, verifies signatures, acknowledges duplicates, reacts to webhooks) and a naive one with planted defects
 * (retries at once, sends a dead token again, polls, accepts anything, rejects duplicates, answers slowly). Waiting
 * moves an injected wall clock (`wall`), never a real sleep, so the Retry-After check is tested without racing.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { createControlClient } from '../../src/client/control-client.js';
import type { ReadinessReport } from '../../src/readiness/report.js';
import { type Sandbox, createSandbox } from '../../src/sandbox.js';
import { type TenantHandle, makeTenant } from './tenant-kit.js';

/**
 * A wall clock only the test moves: it stands still but for what the careful integration "waits", so an immediate
 * retry is immediate and a wait is as long as said, however fast or busy the machine.
 */
export function steppedWall(): { now: () => number; wait(ms: number): void } {
  let at = Date.parse('2026-03-01T09:00:00Z');
  return {
    now: () => at,
    wait: (ms) => {
      at += ms;
    },
  };
}

export interface Integration {
  readonly receiverUrl: string;
  /** Token, webhook, a contract created and sent to one signer: its key. */
  start(): Promise<string>;
  /** Learns that the contract was signed: by its webhook (careful) or by polling (naive). */
  learnSigned(contractKey: string): Promise<void>;
  close(): Promise<void>;
}

interface Options {
  careful: boolean;
  url: string;
  tenant: TenantHandle;
  clientKey: string;
  wait(ms: number): void;
}

export async function integration(options: Options): Promise<Integration> {
  const { careful, url, tenant, clientKey } = options;
  const receiver = careful ? await createWebhookReceiver() : await naiveReceiver();
  let token: string | undefined;

  const newToken = async () => {
    const r = await post('/api/token', { data: { action: 'create', apiKey: tenant.apiKey, secret: tenant.secret } });
    token = r.body.access_token as string;
  };
  async function post(path: string, body: unknown, bearer?: string) {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any, retryAfter: Number(res.headers.get('retry-after')) };
  }
  /** One call of the integration, with its way of handling 401, 429 and 503. */
  async function call(path: string, data: Record<string, unknown>) {
    if (!token) await newToken();
    let reusedDeadToken = false;
    for (let tries = 0; tries < 5; tries++) {
      const r = await post(path, { data: { clientKey, ...data } }, token);
      if (r.status === 401 && /expired|revoked/.test(r.body.message)) {
        // The naive one sends its dead token once more before it gets a new one.
        if (!careful && !reusedDeadToken) {
          reusedDeadToken = true;
          continue;
        }
        await newToken();
        continue;
      }
      if (r.status === 429 || r.status === 503) {
        // A second more than asked, as careful clients add jitter.
        if (careful) options.wait(r.retryAfter * 1000 + 1000);
        continue;
      }
      return r;
    }
    throw new Error(`${path} ${JSON.stringify(data)}: gave up`);
  }

  return {
    receiverUrl: receiver.url,
    async start() {
      const hook = await call('/api/webhook', {
        action: 'create',
        webhooks: [
          { url: receiver.url, created: true, sent: true, seen: true, signed: true, approved: true, fullySigned: true },
        ],
      });
      if (careful) (receiver as WebhookReceiver).useSecret(hook.body.webhooks[0].secret);
      const created = await call('/api/contract', {
        action: 'create',
        contract: { name: 'Readiness agreement', value: '<p>Terms</p>' },
        recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 }],
      });
      return created.body.contract.contractKey as string;
    },
    async learnSigned(contractKey) {
      const read = () => call('/api/contract', { action: 'read', contract: { contractKey } });
      if (careful) {
        const told = (receiver as WebhookReceiver)
          .accepted()
          .some((d) => d.payload.type === 'contract.fully_signed' && d.payload.data.contractKey === contractKey);
        if (!told) throw new Error('the careful integration waits for contract.fully_signed');
        await read();
        return;
      }
      for (let i = 0; i < 12; i++) await read();
    },
    close: () => receiver.close(),
  };
}

/**
 * What the naive integration does wrong on purpose, as the ids of the readiness checks that should find it (after a
 * hard day that gives each defect its chance: docs/readiness.md), sorted.
 */
export const NAIVE_DEFECTS = [
  'polling',
  'ignores-retry-after',
  'expired-token-reused',
  'accepts-forged-webhook',
  'accepts-stale-webhook',
  'webhook-receiver-failing',
  'rejects-duplicate',
  'slow-webhook-receiver',
].sort();

/** Both integrations, run on one sandbox, each in its own tenant, and their reports. */
export interface Rehearsal {
  url: string;
  careful: ReadinessReport;
  naive: ReadinessReport;
  tenants: { careful: TenantHandle; naive: TenantHandle };
  close(): Promise<void>;
}

/**
 * Runs both integrations through the same flow: start (token, webhook, a contract created and sent), the signer
 * signs, each learns it (webhook or polling), then an hour passes for the retries. `hardDays` sets up each tenant's
 * bad day first (faults, or a scenario). The naive report judges slowness from 1 s (its receiver takes 1.2 s).
 */
export async function rehearse(hardDays: (tenant: TenantHandle) => Promise<void>): Promise<Rehearsal> {
  const wall = steppedWall();
  const sandbox: Sandbox = await createSandbox({ log: 'none' }, { port: 0, webhooksAfterListen: true, wall: wall.now });
  const url = await sandbox.listen();
  const runs: { tenant: TenantHandle; app: Integration; contractKey: string }[] = [];
  try {
    for (const careful of [true, false]) {
      const tenant = await makeTenant(url, '2026-03-01T09:00:00.000Z', careful ? 'careful' : 'naive');
      const client = await tenant.api('/api/client', {
        data: { action: 'create', client: { fullname: 'Platform Client', email: 'client@example.com' } },
      });
      await hardDays(tenant);
      const app = await integration({ careful, url, tenant, clientKey: client.body.client.clientKey, wait: wall.wait });
      runs.push({ tenant, app, contractKey: '' });
      runs.at(-1)!.contractKey = await app.start();
    }
    for (const { tenant, app, contractKey } of runs) {
      await tenant.control('POST', '/settle');
      const contract = await tenant.control('GET', `/contracts/${contractKey}`);
      await tenant.control('POST', `/recipients/${contract.recipients[0].recipientKey}/sign`);
      await tenant.control('POST', '/settle');
      await app.learnSigned(contractKey);
      // Long enough for the retries of the refused deliveries.
      await tenant.control('POST', '/clock/advance', { by: '1h' });
    }
    const client = createControlClient(url);
    const [careful, naive] = runs;
    return {
      url,
      careful: await client.tenant(careful!.tenant.apiKey).report(),
      naive: await client.tenant(naive!.tenant.apiKey).report({ slowWebhook: '1s' }),
      tenants: { careful: careful!.tenant, naive: naive!.tenant },
      close: async () => {
        for (const { app } of runs) await app.close();
        await sandbox.close();
      },
    };
  } catch (error) {
    for (const { app } of runs) await app.close();
    await sandbox.close();
    throw error;
  }
}

/**
 * The naive integration's receiver: never checks a signature or a timestamp, refuses a webhook-id it saw (409),
 * fails contract.seen (500) and takes 1.2 s over contract.fully_signed.
 */
async function naiveReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const seen = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const type = JSON.parse(Buffer.concat(chunks).toString()).type as string;
      const answer = (status: number) => res.writeHead(status).end();
      if (seen.has(id)) return answer(409);
      seen.add(id);
      if (type === 'contract.seen') return answer(500);
      if (type === 'contract.fully_signed') return void setTimeout(() => answer(200), 1200);
      answer(200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
