/**
 * The dashboard's Readiness tab in process (docs/pages.md): the verdict, each finding with its evidence linked to the
 * request or delivery it names (and the Requests and Webhooks tabs opening on just that one), the hard cases never
 * tried, and the report's formats; for the whole sandbox or the picked tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSandbox, testSandbox } from '../support/helpers.js';

let t: TestSandbox;
let apiKey: string;
beforeAll(async () => {
  t = await testSandbox({ clock: 'frozen', start: '2026-03-01T09:00:00Z' });
  const platform = (await t.control('/platforms', { name: 'naive' })).body;
  apiKey = platform.apiKey;
  const bearer = await t.platformToken({ apiKey, secret: platform.secret });
  await t.control(`/platforms/${apiKey}/tokens/expire`, {});
  for (let i = 0; i < 2; i++) await t.post('/api/client', { data: { action: 'list' } }, { bearer });
});
afterAll(() => t?.close());

const page = async (query: string) => (await t.request(`/__sandbox/ui${query}`)).body as string;

describe('the Readiness tab', () => {
  it('shows a tenant not ready, its finding with linked evidence and advice', async () => {
    const html = await page(`?tab=readiness&tenant=${apiKey}`);
    expect(html).toContain('data-verdict="not-ready"');
    const card = html.split('data-finding="expired-token-reused"')[1]!.split('</div>')[0]!;
    expect(card).toMatch(/Sends a token again after a 401 said it expired/);
    const links = [...card.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    expect(links).toHaveLength(2);
    expect(links[1]).toMatch(new RegExp(`^/__sandbox/ui\\?tab=requests&id=(\\d+)&tenant=${apiKey}#request-\\1$`));
    expect(card).toContain('token #1 sent again after that 401');
    expect(card).toContain('<strong>Advice:</strong>');
    expect(html).toContain(`href="/__sandbox/platforms/${apiKey}/report?format=junit"`);
    expect(html).toContain('data-finding="untested-webhooks"');
  });

  it('opens the Requests tab on the one request the evidence names', async () => {
    const html = await page(`?tab=readiness&tenant=${apiKey}`);
    const id = /tab=requests&amp;id=(\d+)/.exec(html.split('data-finding="expired-token-reused"')[1]!)![1];
    const requests = await page(`?tab=requests&id=${id}&tenant=${apiKey}`);
    expect([...requests.matchAll(/<details id="request-(\d+)"/g)].map((m) => m[1])).toEqual([id]);
    expect(requests).toContain(`<details id="request-${id}" open>`);
  });

  it('shows the whole sandbox ready when no error was found for it, with its coverage', async () => {
    const html = await page('?tab=readiness');
    // The naive tenant's reuse is the sandbox's too.
    expect(html).toContain('data-verdict="not-ready"');
    expect(html).toMatch(/Coverage: \d+ operation\(s\) called/);
    const fresh = (await t.control('/platforms', { name: 'quiet' })).body.apiKey;
    expect(await page(`?tab=readiness&tenant=${fresh}`)).toContain('data-verdict="ready"');
  });
});
