/**
 * The /docs page in a real browser: Swagger UI renders the sandbox's API from the sandbox alone, with nothing
 * fetched from anywhere else. With UPDATE_SCREENSHOTS=1 it also writes docs/images/api-docs.png.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { recordPage, useBrowser } from './browser.js';

const SCREENSHOT = resolve(import.meta.dirname, '../../docs/images/api-docs.png');

const browser = useBrowser();
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ apiKeyHeader: 'x-provider-key' });
});
afterAll(() => sandbox?.close());

describe('the docs page in Chromium', () => {
  it('renders every operation from the sandbox alone, without a request to any other address', async () => {
    const page = await browser.newPage();
    const record = recordPage(page);
    await page.goto(`${sandbox.url}/docs`);
    await page.locator('.opblock-summary-path[data-path="/api/contract"]').waitFor({ state: 'visible' });
    await expect(page.locator('.opblock-summary-path[data-path="/__sandbox/clock"]').first().isVisible()).resolves.toBe(
      true,
    );
    await page.waitForLoadState('networkidle');

    expect(record.requests).toContain(`${sandbox.url}/openapi.json`);
    expect(record.requests.some((url) => url.startsWith(`${sandbox.url}/docs/assets/swagger-ui-bundle.js`))).toBe(true);
    expect(record.outside(sandbox.url)).toEqual([]);
    expect(record.errors).toEqual([]);
    // No "valid/invalid" badge: it would send the document to validator.swagger.io.
    expect(await page.locator('.validator-badge, img[src*="validator"]').count()).toBe(0);

    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
    }
  });

  it('names the configured API-key header in the Authorize dialog', async () => {
    const page = await browser.newPage();
    await page.goto(`${sandbox.url}/docs`);
    await page.locator('button.authorize').click();
    await expect(page.locator('.dialog-ux .modal-ux-content').innerText()).resolves.toContain('X-Provider-Key');
  });
});
