/**
 * esign-sandbox/msw: a test that uses only the service's production URL, answered in process by the sandbox through
 * MSW (docs/library.md, "In process, with MSW"): tokens, a client, a contract created and sent, a PDF uploaded and
 * its document URL fetched, the recipient signing through the recipient endpoints, the signed PDF downloaded.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, createSandbox, createWebhookReceiver, startSandbox } from '../../src/index.js';
import { handlers } from '../../src/msw.js';
import { firstBytes, makePdf } from '../support/documents-kit.js';
import { DRAWN_SIGNATURE } from '../support/recipient-view.js';

const API = 'https://api.sendforsign.com/api';
let sandbox: RunningSandbox;
let server: ReturnType<typeof setupServer>;

/** The sandbox's webhook deliveries are requests of this process too: they go out; anything else unhandled fails. */
function onUnhandledRequest(request: Request, print: { error(): void }) {
  if (request.headers.get('user-agent')?.startsWith('esign-sandbox/')) return;
  print.error();
}

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen' });
  server = setupServer(...handlers(sandbox));
  server.listen({ onUnhandledRequest });
});
afterAll(async () => {
  server?.close();
  await sandbox?.close();
});

async function post(path: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(`${API}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

describe('handlers(sandbox) with MSW', () => {
  it('answers a whole signing at https://api.sendforsign.com in process', async () => {
    const platform = await post('token', {
      data: { action: 'create', apiKey: sandbox.apiKey, secret: sandbox.secret },
    });
    const { client } = await post(
      'client',
      { data: { action: 'create', client: { fullname: 'Acme Ltd', email: 'ops@acme.test' } } },
      platform.access_token,
    );
    const { access_token: token } = await post(
      'token',
      { action: 'create', clientKey: client.clientKey },
      platform.access_token,
    );
    const { contract } = await post(
      'contract',
      { data: { action: 'create', contract: { name: 'Lease', value: '<p>Terms</p>' } } },
      token,
    );
    const contractKey: string = contract.contractKey;
    expect(
      await post(
        'recipient',
        {
          data: {
            action: 'send',
            contractKey,
            recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 }],
          },
        },
        token,
      ),
    ).toMatchObject({ result: true, message: 'Contract sent' });
    const { recipients } = await post('recipient', { data: { action: 'list', contractKey } }, token);
    const shareLink: string = recipients[0].recipientKey;

    // The recipient endpoints: no credentials, the share link names the recipient (RecipientView's requests).
    const opened = await fetch(`${API}/recipient_contract?shareLink=${shareLink}`);
    expect(await opened.json()).toMatchObject({ contractName: 'Lease', isDone: false });
    expect(
      await post('recipient_sign', {
        shareLink,
        fullName: 'Grace Hopper',
        email: 'grace@example.com',
        owner: false,
        base64: DRAWN_SIGNATURE,
      }),
    ).toBeTruthy();
    const read = await post('contract', { data: { action: 'read', contract: { contractKey } } }, token);
    expect(read.contract.status).toBe('Fully signed');

    const pdf = await fetch(`${API}/download_pdf?contractKey=${contractKey}&clientKey=${client.clientKey}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(await firstBytes(pdf, 5)).toBe('%PDF-');
    // Every request reached the sandbox in process and is in its journal, addressed to the production host.
    const journal = await sandbox.requests({ path: '/api/*' });
    expect(journal.map((entry) => entry.status).filter((status) => status >= 400)).toEqual([]);
    expect(journal.length).toBeGreaterThanOrEqual(9);
  });

  it('uploads a PDF, and the document URL the answer gives is the production host, answered too', async () => {
    const headers = { 'x-service-key': sandbox.apiKey! };
    const created = await fetch(`${API}/contract`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: 'Scan', contractType: 'pdf' } },
      }),
    });
    const { contract } = (await created.json()) as { contract: { contractKey: string } };
    const form = new FormData();
    form.set('pdf', new Blob([new Uint8Array(await makePdf(2))], { type: 'application/pdf' }), 'scan.pdf');
    const uploaded = await fetch(
      `${API}/upload_pdf?contractKey=${contract.contractKey}&clientKey=${sandbox.clientKey}`,
      { method: 'POST', headers, body: form },
    );
    expect(uploaded.status).toBeLessThan(300);
    const read = await fetch(`${API}/contract`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        data: { action: 'read', clientKey: sandbox.clientKey, contract: { contractKey: contract.contractKey } },
      }),
    });
    const { contract: shown } = (await read.json()) as { contract: { value: string } };
    expect(shown.value).toMatch(/^https:\/\/api\.sendforsign\.com\/api\/contract_pdf\//);
    const file = await fetch(shown.value);
    expect(file.status).toBe(200);
    expect(await firstBytes(file, 5)).toBe('%PDF-');
  });

  it("lets the sandbox's own webhook deliveries reach a receiver, and fails any other unhandled request", async () => {
    const receiver = await createWebhookReceiver();
    try {
      const headers = { 'x-service-key': sandbox.apiKey!, 'content-type': 'application/json' };
      const hook = await fetch(`${API}/webhook`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          data: { action: 'create', clientKey: sandbox.clientKey, webhooks: [{ url: receiver.url, created: true }] },
        }),
      });
      receiver.useSecret(((await hook.json()) as { webhooks: { secret: string }[] }).webhooks[0]!.secret);
      await fetch(`${API}/contract`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: 'Hooked', value: '<p>x</p>' } },
        }),
      });
      await receiver.waitFor(1);
      expect(receiver.accepted()[0]).toMatchObject({ verified: true });
      await expect(fetch('https://elsewhere.test/')).rejects.toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('answers another origin given as baseUrl, and refuses a baseUrl with a path', async () => {
    server.use(...handlers(sandbox, { baseUrl: 'https://sfs.internal.test' }));
    const health = await fetch('https://sfs.internal.test/__sandbox/health');
    expect(await health.json()).toMatchObject({ status: 'ok' });
    expect(() => handlers(sandbox, { baseUrl: 'https://sfs.internal.test/api' })).toThrow(/baseUrl is an origin/);
  });

  it('answers from a sandbox that never listens (createSandbox)', async () => {
    const bare = await createSandbox({ clock: 'frozen' });
    try {
      server.use(...handlers(bare, { baseUrl: 'https://bare.internal.test' }));
      const res = await fetch('https://bare.internal.test/api/client', {
        method: 'POST',
        headers: { 'x-service-key': bare.defaultAccount.apiKey!, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { action: 'list' } }),
      });
      expect(await res.json()).toMatchObject({ code: '200', clients: expect.any(Array) });
    } finally {
      await bare.close();
    }
  });

  it("leaves the process's Request and Response alone while the sandbox listens: HttpResponse.error() fails a request", async () => {
    server.use(http.get('https://down.internal.test/*', () => HttpResponse.error()));
    await expect(fetch('https://down.internal.test/status')).rejects.toThrow(TypeError);
  });
});
