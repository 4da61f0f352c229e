/**
 * A browser visit leaves nothing refused in the request journal: every page links the sandbox's icon (a data:
 * URI, so no request), and GET /favicon.ico answers the icon for what a browser shows without a page of ours.
 * So a test that opens pages can still assert `requests({ status: '4xx' })` is empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { recordPage, useBrowser } from './browser.js';

const browser = useBrowser();
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: '2026-11-21T09:00:00Z' });
});
afterAll(() => sandbox?.close());

describe('the icon in Chromium', () => {
  it('leaves no 4xx in the request journal after visiting every page', async () => {
    const headers = { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey! };
    const made = await fetch(`${sandbox.url}/api/contract`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        data: {
          action: 'create',
          clientKey: sandbox.clientKey,
          contract: { name: 'Icon check', value: '<p>Terms</p>' },
          recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 }],
        },
      }),
    });
    expect(made.status).toBe(201);
    const link = (await sandbox.outbox.list({ to: 'grace@example.com' })).at(-1)!.link!;

    const page = await browser.newPage();
    const record = recordPage(page);
    const answers = new Map<string, number>();
    page.context().on('response', (response) => answers.set(new URL(response.url()).pathname, response.status()));
    for (const url of [link, `${sandbox.url}/__sandbox/ui`, `${sandbox.url}/docs`, `${sandbox.url}/__sandbox/health`]) {
      await page.goto(url);
      await page.waitForLoadState('networkidle');
    }
    // The pages name their icon, and the browser asked for nothing that was refused.
    await page.goto(link);
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    expect([...answers].filter(([, status]) => status >= 400)).toEqual([]);
    expect(record.errors).toEqual([]);
    expect(await sandbox.requests({ status: '4xx' })).toEqual([]);
  });

  it('answers GET /favicon.ico with the icon, and keeps it out of the journal', async () => {
    const res = await fetch(`${sandbox.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg /);
    expect(await sandbox.requests({ path: '/favicon.ico' })).toEqual([]);
  });
});
