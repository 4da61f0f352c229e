/**
 * The dashboard's tenants in Chromium (docs/pages.md): each contract says which tenant it belongs to, the picker
 * lists every tenant with its clock beside it, and picking one shows its clock and only its records; its clock's
 * buttons move that tenant's clock only. Writes a screenshot to the temp folder (docs/images with UPDATE_SCREENSHOTS=1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { recordPage, useBrowser } from './browser.js';

const browser = useBrowser();
let sandbox: RunningSandbox;
const shots = mkdtempSync(join(tmpdir(), 'esign-tenant-shots-'));
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: '2026-11-21T09:00:00Z' });
}, 30_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(shots, { recursive: true, force: true });
});

async function tenantWithContract(name: string, start: string, contractName: string): Promise<string> {
  const platform = await sandbox.createPlatform({ name, clock: 'frozen', start });
  const call = async (resource: string, data: Record<string, unknown>) =>
    (
      await fetch(`${sandbox.url}/api/${resource}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-key': platform.apiKey },
        body: JSON.stringify({ data }),
      })
    ).json() as Promise<any>;
  const { client } = await call('client', { action: 'create', client: { fullname: `${name} client` } });
  await call('contract', {
    action: 'create',
    clientKey: client.clientKey,
    contract: { name: contractName, value: '<p>Terms</p>' },
    recipients: [{ fullname: 'Grace Hopper', email: `grace@${name}.example` }],
  });
  return platform.apiKey;
}

describe('the dashboard with tenants, in Chromium', () => {
  it('names each record’s tenant, lists tenants with their clocks, and picks one', async () => {
    const north = await tenantWithContract('north', '2030-01-01T08:00:00Z', 'North lease');
    await tenantWithContract('south', '2031-06-15T12:00:00Z', 'South lease');
    const page = await browser.newPage();
    page.setDefaultTimeout(8_000);
    const record = recordPage(page);
    await page.goto(`${sandbox.url}/__sandbox/ui`);
    const rowOf = (name: string) => page.locator('tr', { hasText: name });
    await expect(rowOf('North lease').locator('[data-tenant]').innerText()).resolves.toBe('north');
    await expect(rowOf('South lease').locator('[data-tenant]').innerText()).resolves.toBe('south');
    const options = await page.getByTestId('tenant-picker').locator('option').allInnerTexts();
    expect(options.find((o) => o.startsWith('north'))).toMatch(/2030.*own clock/);
    expect(options.find((o) => o.startsWith('south'))).toMatch(/2031.*own clock/);

    await page.getByTestId('tenant-picker').selectOption(north);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/tenant=/);
    await expect(page.getByRole('region', { name: 'Tenant clock' }).innerText()).resolves.toMatch(/its own clock/);
    await expect(page.getByTestId('clock-now').innerText()).resolves.toMatch(/2030/);
    await expect(rowOf('South lease').count()).resolves.toBe(0);
    await expect(rowOf('North lease').count()).resolves.toBe(1);

    await page.getByRole('button', { name: 'Advance the clock by 1d' }).click();
    // The URL had tenant= already, so waiting for it waited for nothing: the page after the form shows the day after.
    await page.getByTestId('clock-now').filter({ hasText: '2030-01-02' }).waitFor();
    expect((await sandbox.tenant(north).clock.now()).toISOString()).toBe('2030-01-02T08:00:00.000Z');
    expect((await sandbox.clock.now()).toISOString()).toBe('2026-11-21T09:00:00.000Z');
    await page.getByRole('link', { name: 'Outbox' }).click();
    // count() does not wait: read at once after the click, it could count the page being left.
    await page.waitForURL(/tab=emails/);
    await expect(page.locator('[data-email]').count()).resolves.toBe(1);
    await page.screenshot({
      path: process.env.UPDATE_SCREENSHOTS
        ? resolve(import.meta.dirname, '../../docs/images/dashboard-tenants.png')
        : join(shots, 'dashboard-tenants.png'),
    });
    expect(record.outside(sandbox.url)).toEqual([]);
    expect(record.errors).toEqual([]);
  }, 60_000);
});
