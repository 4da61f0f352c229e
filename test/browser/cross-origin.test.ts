/**
 * A page on another origin (a second local server on its own port) in a real Chromium, as a web app embedding the
 * vendor's components would be: it calls /api with fetch (preflighted POSTs with a JSON:API content type and a
 * Bearer token, simple GETs), reads errors, and loads a PDF contract's document; `--cors-origin` narrows who may.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../support/documents-kit.js';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { useBrowser } from './browser.js';
import { apiCall } from '../support/running-api.js';

/** The page's own `document`, inside `page.evaluate` (the tests' types have no DOM). */
declare const document: any;

const browser = useBrowser();
let sandbox: RunningSandbox;
let site: { server: Server; origin: string };

/** A bare page on its own port: the other origin the tests call from. */
async function otherSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>another app</title><h1>another app</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function api(resource: string, data: Record<string, unknown>): Promise<any> {
  return apiCall(sandbox, resource, data);
}

async function pageOnOtherSite(): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(8_000);
  await page.goto(`${site.origin}/`);
  return page;
}

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: '2026-11-21T09:00:00Z' });
  site = await otherSite();
}, 30_000);
afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => site?.server.close(resolve));
});

describe('a page on another origin', () => {
  it('creates and lists contracts with preflighted POSTs (JSON:API content type, Bearer token)', async () => {
    const token = await fetch(`${sandbox.url}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { action: 'create', apiKey: sandbox.apiKey, secret: 'sandboxSecret' } }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const page = await pageOnOtherSite();
    const answers = await page.evaluate(
      async ({ base, token, clientKey }) => {
        const post = async (resource: string, data: unknown) => {
          const res = await fetch(`${base}/api/${resource}`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/vnd.api+json',
              Authorization: `Bearer ${token}`,
              'x-sendforsign-component': 'true',
            },
            body: JSON.stringify({ data }),
          });
          return { status: res.status, body: (await res.json()) as any };
        };
        const created = await post('contract', {
          action: 'create',
          clientKey,
          contract: { name: 'From another app', value: '<p>Hello</p>' },
        });
        const listed = await post('contract', { action: 'list', clientKey });
        return { created, listed };
      },
      { base: sandbox.url, token: token.access_token, clientKey: sandbox.clientKey },
    );
    expect(answers.created.status).toBe(201);
    expect(answers.listed.status).toBe(200);
    expect(answers.listed.body.contracts.map((c: any) => c.name)).toContain('From another app');
  });

  it('reads a simple GET, an error answer, and a GET with the API-key header', async () => {
    const page = await pageOnOtherSite();
    const answers = await page.evaluate(
      async ({ base, apiKey }) => {
        const simple = await fetch(`${base}/api/recipient_download_pdf?shareLink=no-such-link`);
        const unauthorised = await fetch(`${base}/api/event_status`, { headers: { Authorization: 'Bearer nope' } });
        const keyed = await fetch(`${base}/api/event_status`, { headers: { 'X-Sendforsign-Key': apiKey } });
        return {
          simple: { status: simple.status, body: await simple.json() },
          unauthorised: { status: unauthorised.status, body: (await unauthorised.json()) as any },
          keyed: { status: keyed.status, isArray: Array.isArray(await keyed.json()) },
        };
      },
      { base: sandbox.url, apiKey: sandbox.apiKey! },
    );
    expect(answers.simple).toEqual({ status: 404, body: { code: 404, message: 'Share link not found' } });
    expect(answers.unauthorised.status).toBe(401);
    expect(answers.unauthorised.body.code).toBe(401);
    expect(answers.keyed.status).toBe(200);
  });

  it("loads a PDF contract's document and its download as bytes", async () => {
    const { contract } = await api('contract', {
      action: 'create',
      contract: { name: 'A PDF contract', contractType: 'pdf' },
    });
    const form = new FormData();
    form.set('pdf', new Blob([new Uint8Array(await makePdf(2))], { type: 'application/pdf' }), 'c.pdf');
    const uploaded = await fetch(
      `${sandbox.url}/api/upload_pdf?contractKey=${contract.contractKey}&clientKey=${sandbox.clientKey}`,
      { method: 'POST', headers: { 'x-service-key': sandbox.apiKey! }, body: form },
    ).then((r) => r.json() as Promise<{ contract: { value: string } }>);
    const page = await pageOnOtherSite();
    const loaded = await page.evaluate(
      async ({ urls, apiKey }) => {
        const out: { url: string; status: number; type: string | null; head: string }[] = [];
        for (const url of urls) {
          const res = await fetch(url, { headers: { 'x-sendforsign-key': apiKey } });
          const bytes = new Uint8Array(await res.arrayBuffer());
          out.push({
            url,
            status: res.status,
            type: res.headers.get('content-type'),
            head: String.fromCharCode(...bytes.slice(0, 5)),
          });
        }
        return out;
      },
      {
        urls: [
          new URL(
            `${uploaded.contract.value}${uploaded.contract.value.includes('?') ? '&' : '?'}clientKey=${sandbox.clientKey}`,
            sandbox.url,
          ).href,
          `${sandbox.url}/api/download_pdf?contractKey=${contract.contractKey}&clientKey=${sandbox.clientKey}`,
        ],
        apiKey: sandbox.apiKey!,
      },
    );
    expect(loaded).toHaveLength(2);
    for (const answer of loaded)
      expect(answer, answer.url).toMatchObject({ status: 200, type: 'application/pdf', head: '%PDF-' });
  });

  it('cannot read /api from an origin left out of --cors-origin, nor the control API from any', async () => {
    const narrow = await startSandbox({ corsOrigins: ['http://localhost:1'] });
    try {
      const page = await pageOnOtherSite();
      const outcome = await page.evaluate(
        async ({ narrowBase, base }) => {
          const attempt = async (url: string, init?: RequestInit) => {
            try {
              const res = await fetch(url, init);
              return `read ${res.status}`;
            } catch (error) {
              return (error as Error).name;
            }
          };
          return {
            narrowed: await attempt(`${narrowBase}/api/recipient_download_pdf?shareLink=x`),
            state: await attempt(`${base}/__sandbox/state`),
            health: await attempt(`${base}/__sandbox/health`),
          };
        },
        { narrowBase: narrow.url, base: sandbox.url },
      );
      expect(outcome).toEqual({ narrowed: 'TypeError', state: 'TypeError', health: 'TypeError' });
    } finally {
      await narrow.close();
    }
  });
});

describe('a page on another origin driving the sandbox (CSRF)', () => {
  it('cannot reset, move the clock, sign for a recipient or load a scenario, by form or no-cors fetch', async () => {
    const { contract } = await api('contract', {
      action: 'create',
      contract: { name: 'Not to be forged', value: '<p>x</p>' },
      recipients: [{ fullname: 'Ann', email: 'ann@example.test', action: 'sign' }],
    });
    const { recipients } = await api('recipient', { action: 'list', contractKey: contract.contractKey });
    const recipientKey = recipients[0].recipientKey as string;
    const observe = async () => {
      const state = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as any;
      const scenarios = (await (await fetch(`${sandbox.url}/__sandbox/scenarios`)).json()) as any;
      return {
        clock: state.clock,
        contracts: Object.keys(state.store.contracts).length,
        recipient: state.store.recipients[recipientKey],
        active: scenarios.active.length,
      };
    };
    const before = await observe();
    const page = await pageOnOtherSite();
    const base = sandbox.url;
    const targets = [
      { path: '/__sandbox/reset', fields: {} },
      { path: '/__sandbox/clock/advance', fields: { '{"by":"30d","x":"': '"}' } },
      { path: '/__sandbox/clock/freeze', fields: {} },
      { path: `/__sandbox/recipients/${recipientKey}/sign`, fields: { '{"signature":"forged","x":"': '"}' } },
      { path: '/__sandbox/scenarios', fields: { 'name: evil\nrecipients:\n  - sign: 1m\n#': '' } },
      { path: '/__sandbox/ui/reset', fields: { back: '/__sandbox/ui' } },
      { path: '/__sandbox/ui/clock/advance', fields: { by: '30d', back: '/__sandbox/ui' } },
      { path: `/sharing/${recipientKey}`, fields: { verb: 'sign', signature: 'forged' } },
    ];
    // Forms post into hidden frames (the page stays), each awaited until its answer has loaded.
    await page.evaluate(
      async ({ base, targets }) => {
        const posts = targets.map(
          ({ path, fields }, i) =>
            new Promise<void>((resolve) => {
              const frame = document.createElement('iframe');
              frame.name = `f${i}`;
              document.body.append(frame);
              const form = document.createElement('form');
              form.method = 'POST';
              form.action = base + path;
              form.target = frame.name;
              form.enctype = path.startsWith('/__sandbox/') && !path.startsWith('/__sandbox/ui') ? 'text/plain' : '';
              for (const [name, value] of Object.entries(fields)) {
                const input = document.createElement('input');
                input.name = name;
                input.value = value;
                form.append(input);
              }
              document.body.append(form);
              frame.addEventListener('load', () => resolve(), { once: true });
              form.submit();
            }),
        );
        await Promise.all(posts);
      },
      { base, targets },
    );
    // The same with no-cors fetches, which a page may send without a preflight (the answers are opaque).
    await page.evaluate(
      async ({ base, targets }) => {
        for (const { path } of targets) {
          await fetch(base + path, {
            method: 'POST',
            mode: 'no-cors',
            body: path.includes('scenarios')
              ? 'name: evil2\nrecipients:\n  - sign: 1m\n'
              : '{"by":"30d","signature":"forged"}',
          });
          await fetch(base + path, { method: 'POST', mode: 'no-cors' });
        }
      },
      { base, targets },
    );
    expect(await observe()).toEqual(before);
    const journal = (await (
      await fetch(`${sandbox.url}/__sandbox/requests?path=/__sandbox/*&method=POST`)
    ).json()) as any;
    const refused = (journal.requests ?? journal).filter((e: any) => e.path !== '/__sandbox/requests');
    expect(refused.length).toBeGreaterThanOrEqual(targets.length);
    for (const entry of refused) expect([403, 415], `${entry.path}`).toContain(entry.status);
  });

  it("still lets the sandbox's own dashboard act", async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(8_000);
    await page.goto(`${sandbox.url}/__sandbox/ui`);
    const mode = async () => ((await (await fetch(`${sandbox.url}/__sandbox/clock`)).json()) as any).mode as string;
    const before = await mode();
    await Promise.all([
      page.waitForURL(/\/__sandbox\/ui/),
      page.locator(`form[action$="/clock/${before === 'frozen' ? 'unfreeze' : 'freeze'}"] button`).click(),
    ]);
    expect(await mode()).toBe(before === 'frozen' ? 'real' : 'frozen');
  });
});
