/** The recipient page and the dashboard in process (app.request()): headers, sanitising, paging, the ip of an act. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAndSend } from '../support/contract-walk.js';
import { firstBytes, makePdf, readPdf } from '../support/documents-kit.js';
import { type TestSandbox, testSandbox } from '../support/helpers.js';
import { contractPage } from '../../src/http/pages/dashboard-data.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await testSandbox({ clock: 'frozen', start: '2026-11-21T09:00:00Z' });
});
afterAll(() => t.close());

describe('the recipient page', () => {
  it("opens a link made with contract_share_link as the contract's recipient in the link's role", async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const headers = { 'content-type': 'application/json', 'x-service-key': 'sandboxApiKey' };
    const made = await t.request('/api/contract_share_link', {
      method: 'POST',
      headers,
      body: JSON.stringify({ clientKey: 'demoClient', contractKey: walk.contractKey }),
    });
    expect(made.status).toBe(201);
    const links = await t.request(`/api/contract_share_link?clientKey=demoClient&contractKey=${walk.contractKey}`, {
      headers,
    });
    const extra = (links.body as { shareLink: string; id: number }[]).find((l) => l.shareLink !== walk.keys.Ann)!;
    // A new link's view is '4' (view): Ann signs, so no recipient of this contract views, and the link opens nothing.
    expect((await t.request(`/sharing/${extra.shareLink}`)).status).toBe(404);
    const changed = await t.request('/api/contract_share_link', {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        clientKey: 'demoClient',
        contractKey: walk.contractKey,
        shareLink: extra.shareLink,
        id: extra.id,
        view: '1',
      }),
    });
    expect(changed.status).toBe(201);
    const page = await t.request(`/sharing/${extra.shareLink}`);
    expect(page.status).toBe(200);
    expect(page.body as string).toContain('Ann');
    expect(page.body as string).toMatch(/<button[^>]*>\s*Sign\s*<\/button>/);
  });

  it("keeps a contract_share_link link to the recipient it opened as: posting again answers 409, not the next signer's act", async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Ben' }, { name: 'Cy' }]);
    const headers = { 'content-type': 'application/json', 'x-service-key': 'sandboxApiKey' };
    const made = await t.request('/api/contract_share_link', {
      method: 'POST',
      headers,
      body: JSON.stringify({ clientKey: 'demoClient', contractKey: walk.contractKey, view: '1' }),
    });
    expect(made.status).toBe(201);
    const links = await t.request(`/api/contract_share_link?clientKey=demoClient&contractKey=${walk.contractKey}`, {
      headers,
    });
    const own = new Set(Object.values(walk.keys));
    const extra = (links.body as { shareLink: string; id: number }[]).find((l) => !own.has(l.shareLink))!;
    const page = await t.request(`/sharing/${extra.shareLink}`);
    expect(page.body as string).toContain('Ann');
    const sign = () =>
      t.request(`/sharing/${extra.shareLink}`, {
        method: 'POST',
        body: new URLSearchParams({ verb: 'sign', signature: 'Holder of the link' }),
      });
    expect((await sign()).status).toBe(303);
    expect((await sign()).status).toBe(409);
    expect((await sign()).status).toBe(409);
    const recipients = (await t.control(`/contracts/${walk.contractKey}`)).body.recipients as any[];
    expect(Object.fromEntries(recipients.map((r) => [r.fullname, r.state]))).toMatchObject({
      Ann: 'signed',
      Ben: expect.not.stringMatching(/signed/),
      Cy: expect.not.stringMatching(/signed/),
    });
    // The page still shows Ann, whose link it has become.
    expect((await t.request(`/sharing/${extra.shareLink}`)).body as string).toContain('Ann');
  });

  it('sends a CSP that allows no inline script and nothing from another origin', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const page = await t.request(`/sharing/${walk.keys.Ann}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
  });

  it("never lets a contract's script, handlers, styles or remote images through", async () => {
    const value =
      '<p onclick="x()">Hi <b>there</b></p><script>alert(1)</script><img src="https://evil.test/x.png"><iframe src="/"></iframe><a href="javascript:alert(1)">x</a><p style="color:red">s</p>';
    const { body } = await t.post(
      '/api/contract',
      {
        data: {
          action: 'create',
          contract: { name: 'Hostile', value },
          recipients: [{ fullname: 'Bo', email: 'bo@example.com', action: 'sign' }],
        },
      },
      await t.demoAuth(),
    );
    const key = (await t.control(`/contracts/${body.contract.contractKey}`)).body.recipients[0].recipientKey;
    const page = (await t.request(`/sharing/${key}`)).body as string;
    const article = page.slice(page.indexOf('<article'), page.indexOf('</article>'));
    expect(article).toContain('<p>Hi <b>there</b></p>');
    for (const bad of ['<script', 'onclick', 'evil.test', '<iframe', 'javascript:', 'style='])
      expect(article, bad).not.toContain(bad);
  });

  it('shows the date signed in the one time format for people, as the PDF does, not as ISO', async () => {
    const { body } = await t.post(
      '/api/contract',
      {
        data: {
          action: 'create',
          contract: { name: 'Dated', value: '<p>Signed on <date1></date1> by <fullname1></fullname1></p>' },
          recipients: [{ fullname: 'Bo', email: 'bo@example.com', action: 'sign' }],
        },
      },
      await t.demoAuth(),
    );
    const key = (await t.control(`/contracts/${body.contract.contractKey}`)).body.recipients[0].recipientKey;
    await t.control(`/recipients/${key}/sign`, { signature: 'Bo' }, 'POST');
    const page = (await t.request(`/sharing/${key}`)).body as string;
    const article = page.slice(page.indexOf('<article'), page.indexOf('</article>'));
    expect(article).toContain('Signed on <span class="placeholder">2026-11-21 09:00:00 UTC</span>');
    expect(page).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
  });

  it('escapes what the sender wrote around the contract', async () => {
    const walk = await createAndSend(t, [{ name: '<b>Ann</b>' }], undefined, 'Lease <script>');
    const page = (await t.request(`/sharing/${walk.keys['<b>Ann</b>']}`)).body as string;
    expect(page).toContain('Lease &lt;script&gt;');
    expect(page).toContain('&lt;b&gt;Ann&lt;/b&gt;');
  });

  it('acts with cause page; the control API writes 127.0.0.1 as the address', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }, { name: 'Bob' }]);
    await t.request(`/sharing/${walk.keys.Ann}`, {
      method: 'POST',
      body: new URLSearchParams({ verb: 'sign', signature: 'Ann A.' }),
    });
    await walk.act('Bob', 'sign');
    const history = (await walk.inspect()).history.filter((h: any) => h.event === 'signed');
    expect(history.map((h: any) => [h.cause, h.ip])).toEqual([
      ['page', '127.0.0.1'],
      ['control', '127.0.0.1'],
    ]);
  });

  it.each([
    ['no verb', {}, 400, 'is not an action of this page'],
    ['a sign with no signature', { verb: 'sign', signature: '  ' }, 400, 'Type your name or draw your signature'],
    ['another role', { verb: 'approve' }, 409, 'has the role &quot;sign&quot;'],
  ])('shows why it refuses %s', async (_name, form, status, message) => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const res = await t.request(`/sharing/${walk.keys.Ann}`, {
      method: 'POST',
      body: new URLSearchParams(form as Record<string, string>),
    });
    expect(res.status).toBe(status);
    expect(res.body).toContain(message);
    expect((await walk.inspect()).recipients[0].state).not.toBe('signed');
  });
});

describe('the dashboard', () => {
  it('is where / leads', async () => {
    const res = await t.sandbox.app.request('/');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/__sandbox/ui');
  });

  it('pages through many contracts, 25 at a time, newest first, and filters by status', async () => {
    const auth = await t.demoAuth();
    for (let i = 0; i < 60; i++)
      await t.post(
        '/api/contract',
        { data: { action: 'create', contract: { name: `Bulk ${i}`, value: '<p>x</p>' } } },
        auth,
      );
    const total = contractPage(t.sandbox.services).total;
    const first = (await t.request('/__sandbox/ui?tab=contracts&status=Created')).body as string;
    const created = contractPage(t.sandbox.services, { status: 'Created' }).total;
    expect(first).toContain(`1–25 of ${created}`);
    expect(first.match(/data-contract="/g)).toHaveLength(25);
    const second = (await t.request('/__sandbox/ui?tab=contracts&status=Created&page=2')).body as string;
    expect(second).toContain(`26–50 of ${created}`);
    expect(total).toBeGreaterThan(created);
  });

  it('is left out of the request journal (it polls itself)', async () => {
    await t.request('/__sandbox/ui');
    expect((await t.control('/requests?path=/__sandbox/ui*')).body.requests).toEqual([]);
  });

  it('answers a clock form with a way back, and shows a bad time as an error', async () => {
    const res = await t.request('/__sandbox/ui/clock/set', {
      method: 'POST',
      body: new URLSearchParams({ to: 'soon', back: '/__sandbox/ui?tab=emails' }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/__sandbox\/ui\?tab=emails&error=Cannot\+read\+time/);
  });
});

describe('the signed PDF on the recipient page', () => {
  it('is offered once the contract is fully signed, keyed by the share link, and is a real PDF', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    const before = (await t.request(`/sharing/${walk.keys.Ann}`)).body as string;
    expect(before).not.toContain('Download the signed PDF');
    await walk.act('Ann', 'sign');
    const after = (await t.request(`/sharing/${walk.keys.Ann}`)).body as string;
    const href = /href="([^"]*recipient_download_pdf[^"]*)"[^>]*>Download the signed PDF/.exec(after)?.[1];
    expect(href).toBe(`/api/recipient_download_pdf?shareLink=${walk.keys.Ann}`);
    const pdf = await t.sandbox.app.request(href!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(await firstBytes(pdf, 5)).toBe('%PDF-');
    expect((await t.request('/api/recipient_download_pdf?shareLink=nobody')).status).toBe(404);
  });
});

describe('a PDF contract on the recipient page', () => {
  it("shows the sandbox's PDF of it inline, lists the recipient's fields by page, and signs like any other", async () => {
    const auth = { 'content-type': 'application/json', 'x-service-key': 'sandboxApiKey' };
    const created = await t.request('/api/contract', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        data: { action: 'create', clientKey: 'demoClient', contract: { name: 'Lease PDF', contractType: 'pdf' } },
      }),
    });
    const contractKey = (created.body as any).contract.contractKey as string;
    const form = new FormData();
    form.append('pdf', new Blob([await makePdf(2)], { type: 'application/pdf' }), 'lease.pdf');
    const uploaded = await t.sandbox.app.request(`/api/upload_pdf?contractKey=${contractKey}&clientKey=demoClient`, {
      method: 'POST',
      headers: { 'x-service-key': 'sandboxApiKey' },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    await t.request('/api/recipient', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        data: {
          action: 'create',
          clientKey: 'demoClient',
          contractKey,
          recipients: [{ fullname: 'Pia', email: 'pia@example.com', action: 'sign' }],
        },
      }),
    });
    const key = (await t.control(`/contracts/${contractKey}`)).body.recipients[0].recipientKey as string;
    const placed = await t.request('/api/placeholder', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        data: {
          action: 'update',
          clientKey: 'demoClient',
          contractKey,
          placeholders: [
            {
              placeholderKey: `${key}_4`,
              isSpecial: true,
              specialType: 4,
              insertion: [{ id: '1', pageId: '1', width: '300', height: '60', positionX: '100', positionY: '500' }],
            },
          ],
        },
      }),
    });
    expect(placed.status).toBe(201);
    await t.request('/api/recipient', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ data: { action: 'send', clientKey: 'demoClient', contractKey } }),
    });
    const page = (await t.request(`/sharing/${key}`)).body as string;
    const src = `/api/recipient_download_pdf?shareLink=${key}&amp;inline=1`;
    expect(page).toContain(`<object data="${src}" type="application/pdf"`);
    expect(page).toMatch(/<li>Signature on page 2<\/li>/);
    const shown = await t.sandbox.app.request(src.replace('&amp;', '&'));
    expect(shown.headers.get('content-disposition')).toMatch(/^inline;/);
    const pages = await readPdf(new Uint8Array(await shown.arrayBuffer()));
    expect(pages).toHaveLength(2);
    expect(pages[1]!.text).toContain('Signature');
    const signed = await t.request(`/sharing/${key}`, {
      method: 'POST',
      body: new URLSearchParams({ verb: 'sign', signature: 'Pia P.' }),
    });
    expect(signed.status).toBe(303);
    expect((await t.control(`/contracts/${contractKey}`)).body.status).toBe('Fully signed');
  });
});

describe("the dashboard's way back", () => {
  it.each([
    ['a CR/LF (a header injection)', '/__sandbox/ui\r\nSet-Cookie: x=1'],
    ['a space', '/__sandbox/ui ?tab=emails'],
    ['another site', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/__sandbox/ui'],
    ['a backslash', '/\\evil.example/__sandbox/ui'],
    ['a path outside the dashboard', '/api/contract'],
    ['a path that climbs out of it', '/__sandbox/ui/../../api'],
  ])('refuses %s with 400 before acting', async (_name, back) => {
    const before = (await t.control('/clock')).body.now;
    const res = await t.request('/__sandbox/ui/clock/advance', {
      method: 'POST',
      body: new URLSearchParams({ by: '1d', back }),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"back" must be a path of the dashboard');
    expect((await t.control('/clock')).body.now).toBe(before);
  });

  it('goes back to the dashboard when no way back is given', async () => {
    const res = await t.request('/__sandbox/ui/clock/advance', {
      method: 'POST',
      body: new URLSearchParams({ by: '1m' }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/__sandbox/ui');
  });
});
