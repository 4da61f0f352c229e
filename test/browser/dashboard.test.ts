/**
 * The dashboard in Chromium, as a person reads it: the connect card (API address, key header, credentials), client
 * and recipient names, a drawn signature shown as an image, webhook rows with their contract and last status code,
 * the Scenarios tab loading a bundled scenario and pasted YAML with its buttons, and the Readiness tab whose evidence
 * opens the request it names. With UPDATE_SCREENSHOTS=1 it writes docs/images/dashboard-scenarios.png and
 * dashboard-readiness.png.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, type WebhookReceiver, createWebhookReceiver, startSandbox } from '../../src/index.js';
import { signaturePng } from '../support/documents-kit.js';
import { recordPage, useBrowser } from './browser.js';
import { platformTokenOverHttp } from '../support/tenant-kit.js';

const PNG = signaturePng();

const IMAGES = resolve(import.meta.dirname, '../../docs/images');

const browser = useBrowser();
let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: '2026-11-21T09:00:00Z' });
  receiver = await createWebhookReceiver();
}, 30_000);
afterAll(async () => {
  await receiver?.close();
  await sandbox?.close();
});

async function api(resource: string, data: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${sandbox.url}/api/${resource}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey! },
    body: JSON.stringify({ data: { clientKey: sandbox.clientKey, ...data } }),
  });
  return res.json();
}

describe('the dashboard in Chromium', () => {
  it('shows names, signatures, webhook results and how to connect', async () => {
    const hook = await api('webhook', { action: 'create', webhooks: [{ url: receiver.url, created: true }] });
    receiver.useSecret(hook.webhooks[0].secret);
    const { contract } = await api('contract', {
      action: 'create',
      contract: { name: 'Garden lease', value: '<p>Terms</p>' },
      recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 }],
    });
    const [grace] = sandbox.sandbox.control.inspection.contract(contract.contractKey).recipients;
    await sandbox.recipients.sign(grace!.recipientKey, { signature: PNG });

    const page = await browser.newPage();
    page.setDefaultTimeout(8_000);
    const record = recordPage(page);
    await page.goto(`${sandbox.url}/`);
    const card = page.getByTestId('connection');
    await expect(card.innerText()).resolves.toMatch(
      new RegExp(
        `API\\s+${sandbox.url}/api[\\s\\S]*Key header\\s+X-Service-Key[\\s\\S]*API key\\s+sandboxApiKey[\\s\\S]*Secret\\s+sandboxSecret[\\s\\S]*Client key\\s+demoClient\\s+\\(Demo Client\\)`,
        'i',
      ),
    );
    const row = page.locator(`tr[data-contract="${contract.contractKey}"]`);
    await expect(row.locator('td').nth(1).innerText()).resolves.toMatch(/^Demo Client/);
    await row.getByRole('link', { name: 'Garden lease' }).click();
    const detail = page.getByTestId('contract-detail');
    const signature = detail.locator('img.signature');
    await signature.waitFor();
    expect(await signature.evaluate((img) => (img as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const signedRow = detail.locator('tr').filter({ has: page.locator('td', { hasText: /^signed$/ }) });
    await expect(signedRow.first().innerText()).resolves.toContain('Grace Hopper');
    await expect(detail.innerText()).resolves.not.toContain('data:image');

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(
      page.locator('details[data-delivery="contract.created"] summary').first().innerText(),
    ).resolves.toMatch(/contract\.created · Garden lease .* last: HTTP 200/);
    expect(record.outside(sandbox.url)).toEqual([]);
    expect(record.errors).toEqual([]);
  });

  it('loads a bundled scenario with its button, and a pasted one', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.setDefaultTimeout(8_000);
    await page.goto(`${sandbox.url}/__sandbox/ui?tab=scenarios`);
    const bundled = page.locator('tr[data-bundled]');
    expect(await bundled.count()).toBeGreaterThan(5);
    for (const text of await bundled.locator('td:nth-child(2)').allInnerTexts()) expect(text.trim()).not.toBe('');
    await page.getByRole('button', { name: 'Load happy-path' }).click();
    await page.locator('[data-scenario="happy-path"]').waitFor();
    await page
      .getByLabel('Scenario YAML')
      .fill(
        'name: pasted-in-chromium\ndescription: Everyone signs within five minutes.\nrecipients:\n  - { match: {}, sign: 5m }\n',
      );
    await page.getByRole('button', { name: 'Load scenario' }).click();
    await page.locator('[data-scenario="pasted-in-chromium"]').waitFor();
    await expect(page.locator('[data-scenario="pasted-in-chromium"]').innerText()).resolves.toContain(
      'Everyone signs within five minutes.',
    );
    expect((await sandbox.scenarios.list()).active.map((s) => s.name)).toEqual(['happy-path', 'pasted-in-chromium']);
    await page.getByLabel('Scenario YAML').fill('name: broken\nrecipients: 3\n');
    await page.getByRole('button', { name: 'Load scenario' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toMatch(/recipients/);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(IMAGES, { recursive: true });
      await page.screenshot({ path: resolve(IMAGES, 'dashboard-scenarios.png'), fullPage: false });
    }
  });

  it('shows each expectation of a loaded scenario with its status and evidence', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.setDefaultTimeout(8_000);
    await page.goto(`${sandbox.url}/__sandbox/ui?tab=scenarios`);
    await page
      .getByLabel('Scenario YAML')
      .fill(
        'name: checks-in-chromium\nexpect:\n  - { id: no-errors, noRequest: { status: 5xx } }\n  - { id: token-soon, request: { path: /api/token }, by: 1h }\n',
      );
    await page.getByRole('button', { name: 'Load scenario' }).click();
    const card = page.locator('[data-scenario="checks-in-chromium"]');
    await card.waitFor();
    await expect(card.locator('[data-expectation="no-errors"]').getAttribute('data-status')).resolves.toBe('met');
    await expect(card.locator('[data-expectation="token-soon"]').innerText()).resolves.toMatch(
      /token-soon\s+pending\s+nothing matching yet \(deadline /,
    );
    if (process.env.SCREENSHOT_EXPECTATIONS) await card.screenshot({ path: process.env.SCREENSHOT_EXPECTATIONS });
  });

  it('shows the readiness of a tenant, and its evidence opens the request it names', async () => {
    const platform = await sandbox.createPlatform({ name: 'naive in chromium' });
    const token = await platformTokenOverHttp(sandbox.url, platform);
    await sandbox.tenant(platform.apiKey).expireTokens();
    for (let i = 0; i < 2; i++)
      await fetch(`${sandbox.url}/api/client`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ data: { action: 'list' } }),
      });
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.setDefaultTimeout(8_000);
    const record = recordPage(page);
    await page.goto(`${sandbox.url}/__sandbox/ui?tab=readiness&tenant=${platform.apiKey}`);
    await expect(page.locator('[data-verdict]').innerText()).resolves.toMatch(/^Not ready: 1 error\(s\)/);
    const finding = page.locator('[data-finding="expired-token-reused"]');
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(IMAGES, { recursive: true });
      await page.screenshot({ path: resolve(IMAGES, 'dashboard-readiness.png'), fullPage: false });
    }
    await finding.getByRole('link', { name: /token #1 sent again after that 401/ }).click();
    const opened = page.locator('details[open][id^="request-"]');
    await expect(opened.locator('summary').innerText()).resolves.toBe('POST /api/client');
    expect(record.outside(sandbox.url)).toEqual([]);
    expect(record.errors).toEqual([]);
  });
});
