/**
 * The dashboard in process (app.request()): what it shows a person (client names, recipient names, webhook
 * contracts and last status codes, signatures as images, the API's address and credentials) and the Scenarios
 * tab, which loads a bundled scenario by name or pasted YAML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookReceiver, type WebhookReceiver } from '../../src/index.js';
import { createAndSend } from '../support/contract-walk.js';
import { type TestSandbox, testSandbox } from '../support/helpers.js';

let t: TestSandbox;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await testSandbox({ clock: 'frozen', start: '2026-11-21T09:00:00Z', apiKeyHeader: 'x-provider-key' });
  receiver = await createWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const page = async (query: string) => (await t.request(`/__sandbox/ui${query}`)).body as string;

/** A form of the dashboard, posted as a browser on the same origin posts it. */
function postForm(path: string, fields: Record<string, string>) {
  return t.sandbox.app.request(`http://localhost/__sandbox/ui${path}`, {
    method: 'POST',
    headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(fields),
  });
}

describe('the dashboard shows people what they read', () => {
  it("names each contract's client, not only its key", async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const row = (await page('?tab=contracts')).split(`data-contract="${walk.contractKey}"`)[1]!.split('</tr>')[0]!;
    const clientCell = row.split('<td>')[2]!;
    expect(clientCell).toMatch(/^Demo Client<br \/><span class="mono muted">demoClient<\/span>/);
  });

  it('names a client with an empty name by its key, in the client filter as in the contract rows', async () => {
    const token = await t.platformToken();
    const made = await t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: '', email: 'nameless@x.test' } } },
      { bearer: token },
    );
    expect(made.status).toBe(201);
    const key = made.body.client.clientKey as string;
    const contracts = await page('?tab=contracts');
    expect(contracts).toContain(`<option value="${key}" >${key} (${key})</option>`);
  });

  it("names recipients in a contract's history, and shows a drawn signature as its image", async () => {
    const walk = await createAndSend(t, [{ name: 'Grace Hopper' }]);
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    await walk.act('Grace Hopper', 'sign', { signature: png });
    const detail = await page(`?tab=contracts&contract=${walk.contractKey}`);
    const history = detail.slice(detail.indexOf('<h4>History</h4>'));
    expect(history).toMatch(/<td>signed<\/td><td>Grace Hopper<br \/>/);
    const placeholders = detail.slice(detail.indexOf('<h4>Placeholders</h4>'), detail.indexOf('<h4>History</h4>'));
    expect(placeholders).toContain(`<img class="signature" alt="signature" src="${png}"`);
    expect(placeholders).not.toMatch(/>data:image/);
    expect(placeholders).toContain('<td>Date signed</td><td class="mono">2026-11-21 09:00:00 UTC</td>');
  });

  it('shows each webhook delivery with its contract and the last status code', async () => {
    const created = await t.post(
      '/api/webhook',
      { data: { action: 'create', webhooks: [{ url: receiver.url, created: true }] } },
      await t.demoAuth(),
    );
    receiver.useSecret(created.body.webhooks[0].secret);
    receiver.failNext(1, { status: 503 });
    const walk = await createAndSend(t, [{ name: 'Ann' }], undefined, 'Webhooked lease');
    const attempts = () =>
      t.sandbox.control.webhooks.deliveries({ contractKey: walk.contractKey }).flatMap((d) => d.attempts).length;
    await expect.poll(attempts).toBe(1);
    const tab = await page('?tab=webhooks');
    const summary = tab
      .split('<summary>')
      .find((s) => s.includes(walk.contractKey))!
      .split('</summary>')[0]!;
    expect(summary).toContain('contract.created');
    expect(summary).toContain('Webhooked lease');
    expect(summary).toContain('last: HTTP 503');
    expect(summary).not.toContain('attempt(s)');
    await t.control('/clock/advance', { by: '5s' }, 'POST');
    await expect.poll(attempts).toBe(2);
    const after = (await page('?tab=webhooks')).split('<summary>').find((s) => s.includes(walk.contractKey))!;
    expect(after).toContain('last: HTTP 200 (attempt 2)');
  });

  it('shows the API address, the key header and the credentials as the start banner does', async () => {
    const card = (await page('')).split('data-testid="connection"')[1]!.split('</section>')[0]!;
    for (const [label, value] of [
      ['API', 'http://localhost/api'],
      ['Control API', 'http://localhost/__sandbox'],
      ['Key header', 'X-Provider-Key'],
      ['API key', 'sandboxApiKey'],
      ['Secret', 'sandboxSecret'],
      ['Client key', 'demoClient'],
    ])
      expect(card).toContain(`<dt>${label}</dt><dd><code>${value}</code>`);
    expect(card).toContain('(Demo Client)');
  });
});

describe('the Scenarios tab', () => {
  it('describes every bundled scenario', async () => {
    const { bundled } = await t.sandbox.scenarios.list();
    expect(bundled.length).toBeGreaterThan(5);
    const tab = await page('?tab=scenarios');
    for (const b of bundled) {
      expect(b.description, b.name).toBeTruthy();
      expect(b.description).not.toMatch(/invalid/);
      expect(tab).toContain(`data-bundled="${b.name}"`);
    }
  });

  it('loads a bundled scenario by name and comes back to the tab', async () => {
    const res = await postForm('/scenarios/load', { name: 'happy-path', back: '/__sandbox/ui?tab=scenarios' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/__sandbox/ui?tab=scenarios');
    expect((await t.sandbox.scenarios.list()).active.map((s) => s.name)).toContain('happy-path');
    expect(await page('?tab=scenarios')).toContain('data-scenario="happy-path"');
  });

  it('loads pasted YAML, and shows why a bad one was refused', async () => {
    const yaml =
      'name: pasted-one\ndescription: Everyone signs within five minutes.\nrecipients:\n  - { match: {}, sign: 5m }\n';
    const res = await postForm('/scenarios/load', { yaml, back: '/__sandbox/ui?tab=scenarios' });
    expect(res.status).toBe(303);
    const active = (await t.sandbox.scenarios.list()).active.find((s) => s.name === 'pasted-one');
    expect(active?.description).toBe('Everyone signs within five minutes.');

    const bad = await postForm('/scenarios/load', {
      yaml: 'name: x\nrecipients: 3\n',
      back: '/__sandbox/ui?tab=scenarios',
    });
    expect(bad.status).toBe(303);
    const location = new URL(bad.headers.get('location')!, 'http://localhost');
    expect(location.searchParams.get('tab')).toBe('scenarios');
    expect(location.searchParams.get('error')).toMatch(/recipients/);
    const empty = await postForm('/scenarios/load', { yaml: '  ', back: '/__sandbox/ui?tab=scenarios' });
    expect(new URL(empty.headers.get('location')!, 'http://localhost').searchParams.get('error')).toBe(
      'Paste a scenario (YAML) first',
    );
  });
});

describe("the dashboard's forms obey the control API's limits", () => {
  const rules = (n: number) =>
    `name: long\nrecipients:\n${Array.from({ length: n }, (_, i) => `  - { match: { email: "r${i}@example.com" }, sign: 5m }\n`).join('')}`;

  it('refuses scenario YAML over 16 KiB, as the control API does, and loads nothing', async () => {
    const yaml = rules(400);
    expect(yaml.length).toBeGreaterThan(16 * 1024);
    const api = await t.control('/scenarios', { yaml });
    expect(api.status).toBe(400);
    const res = await postForm('/scenarios/load', { yaml, back: '/__sandbox/ui?tab=scenarios' });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get('location')!, 'http://localhost').searchParams.get('error')).toBe(api.body.message);
    expect((await t.sandbox.scenarios.list()).active.map((s) => s.name)).not.toContain('long');
  });

  it("refuses a form body over the body limit with the control API's 413", async () => {
    const small = await testSandbox({ clock: 'frozen', maxBody: '1kb' });
    try {
      const res = await small.sandbox.app.request('http://localhost/__sandbox/ui/clock/advance', {
        method: 'POST',
        headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ by: '1h', padding: 'x'.repeat(4096) }),
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ code: 413, message: 'Request body is larger than the limit of 1024 bytes' });
    } finally {
      await small.close();
    }
  });

  it("advances a tenant's clock through the same operation as the control API's scoped route", async () => {
    const tenant = (await t.control('/platforms', { clock: 'frozen', start: '2026-11-21T09:00:00Z' })).body;
    const res = await postForm('/clock/advance', { by: '99999999999999999999d', tenant: tenant.apiKey });
    const error = new URL(res.headers.get('location')!, 'http://localhost').searchParams.get('error');
    const api = await t.control(`/platforms/${tenant.apiKey}/clock/advance`, { by: '99999999999999999999d' });
    expect(api.status).toBe(400);
    expect(error).toBe(api.body.message);
  });
});
