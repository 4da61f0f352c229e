/**
 * The recipient page and the dashboard in a real Chromium: recipients open the links of their emails, sign by
 * typing and by drawing, approve, lock or only read; the dashboard, open beside them, follows each step by itself.
 * Every act's webhook (a real signed delivery to a local receiver) and email are checked as the control API's are.
 * With UPDATE_SCREENSHOTS=1 it writes docs/images/recipient-page*.png and dashboard*.png.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makePdf } from '../support/documents-kit.js';
import { type RunningSandbox, type WebhookReceiver, createWebhookReceiver, startSandbox } from '../../src/index.js';
import { type PageRecord, recordPage, useBrowser } from './browser.js';
import { apiCall } from '../support/running-api.js';

const IMAGES = resolve(import.meta.dirname, '../../docs/images');
const browser = useBrowser();
let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let records: PageRecord[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: '2026-11-21T09:00:00Z' });
  receiver = await createWebhookReceiver();
  const created = await api('webhook', {
    action: 'create',
    webhooks: [
      { url: receiver.url, created: true, sent: true, seen: true, signed: true, approved: true, fullySigned: true },
    ],
  });
  receiver.useSecret(created.webhooks[0].secret);
}, 30_000);
afterAll(async () => {
  await receiver?.close();
  await sandbox?.close();
});
beforeEach(() => {
  records = [];
});

function api(resource: string, data: Record<string, unknown>): Promise<any> {
  return apiCall(sandbox, resource, data);
}

type Who = { fullname: string; email: string; action: 'sign' | 'approve' | 'lock' | 'view'; position?: number };

/** A sent contract; answers its key and each recipient's key by name. */
async function sendContract(
  name: string,
  value: string,
  recipients: Who[],
): Promise<{ contractKey: string; keys: Record<string, string> }> {
  const { contract } = await api('contract', { action: 'create', contract: { name, value } });
  await api('recipient', { action: 'send', contractKey: contract.contractKey, recipients });
  const list = await api('recipient', { action: 'list', contractKey: contract.contractKey });
  return {
    contractKey: contract.contractKey,
    keys: Object.fromEntries(list.recipients.map((r: any) => [r.name ?? r.fullname, r.recipientKey])),
  };
}

/** The link of the newest request email to this address: what a recipient clicks. */
async function emailLink(to: string): Promise<string> {
  const mails = (await sandbox.outbox.list({ to })).filter((m) => m.link);
  expect(mails.length, `a request email to ${to}`).toBeGreaterThan(0);
  return mails.at(-1)!.link!;
}

async function open(url: string): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(8_000);
  records.push(recordPage(page));
  await page.goto(url);
  return page;
}

/** Webhook events received for a contract, as `type:recipientKey`, once the first attempts have settled. */
async function events(contractKey: string, count: number): Promise<string[]> {
  const got = await receiver.waitFor(
    (all) => all.filter((d) => d.payload.data.contractKey === contractKey).length >= count,
  );
  const mine = got.filter((d) => d.payload.data.contractKey === contractKey);
  for (const d of mine) expect(d.verified, d.verifyError).toBe(true);
  return mine.map((d) => `${d.payload.type}${d.payload.data.recipientKey ? `:${d.payload.data.recipientKey}` : ''}`);
}

/** The whole contract as GET /__sandbox/contracts/{key} shows it. */
function inspect(contractKey: string) {
  return sandbox.sandbox.control.inspection.contract(contractKey);
}

function screenshot(page: Page, name: string, fullPage = true): Promise<unknown> | undefined {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return undefined;
  mkdirSync(IMAGES, { recursive: true });
  return page.screenshot({ path: resolve(IMAGES, name), fullPage });
}

/**
 * Waits until the page shows this text in its status: after a form is submitted, the click returns before the page it
 * answers with has loaded, and a status read at once could be the one of the page being left (the PDF signing test
 * read '' so on a fast machine, 2026-11-28).
 */
async function statusShows(page: Page, text: string): Promise<void> {
  await page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 10_000 });
}

/** Waits until the dashboard, left open, shows this text in the row of this contract (it polls by itself). */
async function dashboardShows(dashboard: Page, contractKey: string, text: string): Promise<void> {
  await dashboard.locator(`tr[data-contract="${contractKey}"]`, { hasText: text }).waitFor({ timeout: 10_000 });
}

function nothingLeftTheSandbox(): void {
  expect(records.length, 'pages recorded').toBeGreaterThan(0);
  for (const record of records) {
    expect(record.outside(sandbox.url)).toEqual([]);
    expect(record.errors).toEqual([]);
  }
}

const LEASE = `<h2>Lease agreement</h2>
<p>Between <strong>Acme Ltd</strong> and the tenants below, for the flat at 1 Main Street.</p>
<script>window.pwned = 'script';</script><img src="x" onerror="window.pwned = 'onerror'"><a href="javascript:window.pwned='link'">a link</a>
<p>Signed: <sign1></sign1> (<fullname1></fullname1>, <date1></date1>)</p>`;

describe('the recipient page and the dashboard in Chromium', () => {
  it('two recipients sign in turn, by typing and by drawing, while the dashboard follows each step', async () => {
    const { contractKey, keys } = await sendContract('Flat lease', LEASE, [
      { fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 },
      { fullname: 'Alan Turing', email: 'alan@example.com', action: 'sign', position: 2 },
    ]);
    const grace = keys['Grace Hopper']!;
    const alan = keys['Alan Turing']!;
    const dashboard = await open(`${sandbox.url}/`);
    expect(new URL(dashboard.url()).pathname).toBe('/__sandbox/ui');
    await dashboardShows(dashboard, contractKey, 'Sent');

    // Alan, out of turn, opens his own page (/sharing/<his key>): it says whom it waits for, and is not a view.
    const early = await open(`${sandbox.url}/sharing/${alan}`);
    await expect(early.getByRole('status').innerText()).resolves.toContain(
      'It is not your turn yet. This contract is waiting for Grace Hopper (to sign) first',
    );
    expect(await early.getByRole('button', { name: 'Sign' }).count()).toBe(0);
    expect(inspect(contractKey).recipients.find((r) => r.recipientKey === alan)!.state).toBe('waiting');

    // Grace follows the link in her email: opening it is her view.
    const page = await open(await emailLink('grace@example.com'));
    expect(new URL(page.url()).pathname).toBe(`/sharing/${grace}`);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Flat lease');
    expect(await page.evaluate(() => (globalThis as { pwned?: string }).pwned)).toBeUndefined();
    expect(await page.locator('article script, article [onerror], article a[href^="javascript"]').count()).toBe(0);
    await dashboardShows(dashboard, contractKey, 'Seen');
    expect(await events(contractKey, 3)).toEqual(['contract.created', 'contract.sent', `contract.seen:${grace}`]);

    await page.getByLabel('Type your full name as your signature').fill('Grace B. Hopper');
    await screenshot(page, 'recipient-page.png');
    await page.getByRole('button', { name: 'Sign' }).click();
    await statusShows(page, 'You signed this contract');
    await expect(page.getByRole('status').innerText()).resolves.toContain(
      'You signed this contract on 2026-11-21 09:00:00 UTC',
    );
    await expect(page.locator('article .placeholder.signature').innerText()).resolves.toBe('Grace B. Hopper');
    expect(await events(contractKey, 4)).toContain(`contract.signed:${grace}`);
    await dashboardShows(dashboard, contractKey, 'Signed');
    const afterGrace = inspect(contractKey);
    expect(
      afterGrace.history.filter((h) => h.recipientKey === grace && (h.event === 'seen' || h.event === 'signed')),
    ).toEqual([
      expect.objectContaining({ event: 'seen', cause: 'page', ip: '127.0.0.1' }),
      expect.objectContaining({ event: 'signed', cause: 'page', ip: '127.0.0.1' }),
    ]);

    // Now it is Alan's turn: his email arrives, and he draws his signature with the pointer.
    const alanPage = await open(await emailLink('alan@example.com'));
    await alanPage.getByLabel('Draw my signature').check();
    const pad = await alanPage.locator('#signature-pad').boundingBox();
    await alanPage.mouse.move(pad!.x + 30, pad!.y + 110);
    await alanPage.mouse.down();
    for (const [dx, dy] of [
      [60, -70],
      [100, 20],
      [150, -50],
      [200, 30],
      [260, -40],
      [320, 10],
    ])
      await alanPage.mouse.move(pad!.x + 30 + dx!, pad!.y + 110 + dy!, { steps: 6 });
    await alanPage.mouse.up();
    await screenshot(alanPage, 'recipient-page-draw.png');
    await alanPage.getByRole('button', { name: 'Sign' }).click();
    await statusShows(alanPage, 'This contract is fully signed');
    await expect(alanPage.getByRole('status').innerText()).resolves.toContain('This contract is fully signed');
    const alanSigned = inspect(contractKey).recipients.find((r) => r.recipientKey === alan)!;
    expect(alanSigned.signature).toMatch(/^data:image\/png;base64,/);
    await expect(alanPage.locator('img.signature').first().getAttribute('src')).resolves.toBe(alanSigned.signature);
    expect(await events(contractKey, 7)).toEqual([
      'contract.created',
      'contract.sent',
      `contract.seen:${grace}`,
      `contract.signed:${grace}`,
      `contract.seen:${alan}`,
      `contract.signed:${alan}`,
      'contract.fully_signed',
    ]);
    const mails = await sandbox.outbox.list({ contractKey });
    expect(mails.map((m) => `${m.kind}:${m.to}`)).toEqual([
      'signing_request:grace@example.com',
      expect.stringMatching(/^contract_signed:/),
      'signing_request:alan@example.com',
      expect.stringMatching(/^contract_signed:/),
    ]);
    await dashboardShows(dashboard, contractKey, 'Fully signed');
    await screenshot(alanPage, 'recipient-page-signed.png');

    // Grace opens her link again: no second view, and no way to sign twice.
    const again = await open(`${sandbox.url}/sharing/${grace}`);
    await expect(again.getByRole('status').innerText()).resolves.toContain('You signed this contract');
    expect(await again.getByRole('button', { name: 'Sign' }).count()).toBe(0);
    expect(inspect(contractKey).history.filter((h) => h.event === 'seen' && h.recipientKey === grace)).toHaveLength(1);

    // The dashboard shows the contract's recipients, links and history when it is picked.
    await dashboard.getByRole('link', { name: 'Flat lease' }).first().click();
    const detail = dashboard.getByTestId('contract-detail');
    await detail.waitFor();
    await expect(detail.innerText()).resolves.toContain('fully_signed');
    expect(await detail.getByRole('link', { name: 'open page' }).first().getAttribute('href')).toBe(
      `${sandbox.url}/sharing/${grace}`,
    );
    await screenshot(dashboard, 'dashboard.png', false);
    nothingLeftTheSandbox();
  }, 60_000);

  it.each([
    ['approve', 'Approve', 'You approved this contract', 'contract.approved', 'contract_approved'],
    ['lock', 'Lock', 'You locked this contract', undefined, undefined],
  ] as const)('a recipient with the role %s presses %s, once', async (role, button, done, event, notice) => {
    const { contractKey, keys } = await sendContract(`To ${role}`, '<p>Terms</p>', [
      { fullname: 'Ada Lovelace', email: `ada-${role}@example.com`, action: role },
    ]);
    const key = keys['Ada Lovelace']!;
    const page = await open(await emailLink(`ada-${role}@example.com`));
    await page.getByRole('button', { name: button }).press('Enter');
    await statusShows(page, done);
    await expect(page.getByRole('status').innerText()).resolves.toContain(done);
    expect(await page.getByRole('button', { name: button }).count()).toBe(0);
    const expected = [
      'contract.created',
      'contract.sent',
      `contract.seen:${key}`,
      ...(event ? [`${event}:${key}`] : []),
    ];
    expect(await events(contractKey, expected.length)).toEqual(expected);
    expect((await sandbox.outbox.list({ contractKey })).map((m) => m.kind)).toEqual([
      `${role === 'approve' ? 'approval' : 'lock'}_request`,
      ...(notice ? [notice] : []),
    ]);
    // A second press, from a page left open, is refused with what happened.
    const res = await fetch(`${sandbox.url}/sharing/${key}`, {
      method: 'POST',
      body: new URLSearchParams({ verb: role }),
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(`has already ${role === 'approve' ? 'approved' : 'locked'} the contract`);
    nothingLeftTheSandbox();
  });

  it('a view-only recipient reads the contract: opening it is the view, with nothing to press', async () => {
    const { contractKey, keys } = await sendContract('For your information', '<p>Read me</p>', [
      { fullname: 'Carl Sagan', email: 'carl@example.com', action: 'view' },
    ]);
    const page = await open(await emailLink('carl@example.com'));
    await expect(page.getByRole('status').innerText()).resolves.toContain('There is nothing for you to sign');
    expect(await page.getByRole('button').count()).toBe(0);
    await expect(page.getByRole('article', { name: 'Contract' }).innerText()).resolves.toBe('Read me');
    expect(await events(contractKey, 3)).toEqual([
      'contract.created',
      'contract.sent',
      `contract.seen:${keys['Carl Sagan']}`,
    ]);
    expect(inspect(contractKey).recipients[0]!.state).toBe('viewed');
    nothingLeftTheSandbox();
  });

  it('an archived contract says so and offers no action', async () => {
    const { contractKey, keys } = await sendContract('Withdrawn offer', '<p>Offer</p>', [
      { fullname: 'Dan Brown', email: 'dan@example.com', action: 'sign' },
    ]);
    await api('contract', { action: 'archive', contract: { contractKey } });
    const page = await open(`${sandbox.url}/sharing/${keys['Dan Brown']}`);
    await expect(page.getByRole('status').innerText()).resolves.toContain('This contract is archived');
    expect(await page.getByRole('button', { name: 'Sign' }).count()).toBe(0);
    expect(inspect(contractKey).recipients[0]!.state).toBe('notified');
  });

  it("a PDF contract's page shows its pages in the browser's viewer with the recipient's field listed, and signs", async () => {
    const { contract } = await api('contract', {
      action: 'create',
      contract: { name: 'PDF lease', contractType: 'pdf' },
    });
    const form = new FormData();
    form.append('pdf', new Blob([await makePdf(2)], { type: 'application/pdf' }), 'lease.pdf');
    const uploaded = await fetch(
      `${sandbox.url}/api/upload_pdf?contractKey=${contract.contractKey}&clientKey=${sandbox.clientKey}`,
      { method: 'POST', headers: { 'x-service-key': sandbox.apiKey! }, body: form },
    );
    expect(uploaded.status).toBe(201);
    await api('recipient', {
      action: 'create',
      contractKey: contract.contractKey,
      recipients: [{ fullname: 'Pia Pdf', email: 'pia@example.com', action: 'sign' }],
    });
    const key = (await api('recipient', { action: 'list', contractKey: contract.contractKey })).recipients[0]
      .recipientKey as string;
    await api('placeholder', {
      action: 'update',
      contractKey: contract.contractKey,
      placeholders: [
        {
          placeholderKey: `${key}_4`,
          isSpecial: true,
          specialType: 4,
          insertion: [{ id: '1', pageId: '1', width: '300', height: '60', positionX: '100', positionY: '500' }],
        },
      ],
    });
    await api('recipient', { action: 'send', contractKey: contract.contractKey });
    const page = await open(await emailLink('pia@example.com'));
    const viewer = page.getByLabel("The contract's pages");
    await expect(viewer.getAttribute('type')).resolves.toBe('application/pdf');
    const src = (await viewer.getAttribute('data'))!;
    const pdf = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        head: new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5)),
      };
    }, src);
    expect(pdf).toEqual({ status: 200, type: 'application/pdf', head: '%PDF-' });
    await expect(page.getByRole('list', { name: 'Your fields' }).innerText()).resolves.toBe('Signature on page 2');
    await page.getByLabel('Type your full name as your signature').fill('Pia Pdf');
    await page.getByRole('button', { name: 'Sign' }).click();
    await statusShows(page, 'You signed this contract');
    await expect(page.getByRole('status').innerText()).resolves.toContain('You signed this contract');
    await expect(page.getByRole('link', { name: 'Download the signed PDF' }).getAttribute('href')).resolves.toBe(
      `/api/recipient_download_pdf?shareLink=${key}`,
    );
  });

  it('an unknown link is a 404 page', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${sandbox.url}/sharing/nosuchlink`);
    expect(res!.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'This link does not open a contract',
    );
  });

  it("the dashboard's outbox, webhook log, clock and reset work from the keyboard and act through the control operations", async () => {
    await sendContract('Dashboard check', '<p>x</p>', [
      { fullname: 'Eve Example', email: 'eve@example.com', action: 'sign' },
    ]);
    const dashboard = await open(`${sandbox.url}/__sandbox/ui?tab=emails`);
    await dashboard.getByText('Please sign "Dashboard check"').first().click();
    await expect(dashboard.locator('details[open]').first().innerText()).resolves.toContain('/sharing/');

    await dashboard.getByRole('link', { name: 'Webhooks' }).click();
    const first = dashboard.locator('details[data-delivery]').first();
    await first.locator('summary').click();
    const attempts = await first.locator('tbody tr').count();
    await first.getByRole('button', { name: 'Redeliver' }).click();
    await expect(dashboard.locator('details[data-delivery]').first().locator('summary').innerText()).resolves.toContain(
      `last: HTTP 200 (attempt ${attempts + 1})`,
    );
    await screenshot(dashboard, 'dashboard-webhooks.png', false);

    const before = (await sandbox.clock.now()).getTime();
    await dashboard.getByRole('button', { name: 'Advance the clock by 1h' }).focus();
    await dashboard.keyboard.press('Enter');
    await dashboard.getByTestId('clock-now').getByText('10:00:00').waitFor();
    expect((await sandbox.clock.now()).getTime() - before).toBe(3_600_000);

    await dashboard.getByText('Reset…').click();
    await dashboard.getByRole('button', { name: 'Yes, reset the sandbox' }).click();
    await dashboard.waitForURL(`${sandbox.url}/__sandbox/ui`);
    expect(await sandbox.outbox.list()).toEqual([]);
    nothingLeftTheSandbox();
  }, 40_000);
});
