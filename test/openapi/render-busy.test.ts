/**
 * The render queue's 503 in the OpenAPI document (docs/documents.md, "Work limits"): every document
 * operation whose work goes through the queue declares the 503 with its Retry-After header and the error body, and
 * the 503 such an operation really answers matches what is declared. The sandbox here draws with a renderer that
 * holds its jobs, behind a queue of one slot and no waiting room, so one held job makes the next one busy at once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RENDER_QUEUE, queuedRenderer } from '../../src/render/queue.js';
import type { Renderer } from '../../src/render/renderer.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { makePdf } from '../support/documents-kit.js';

/** A renderer whose jobs end when the test says so, behind a queue of one slot and no waiting room. */
const held = { release: [] as (() => void)[], started: 0 };
function hold<T>(value: T): Promise<T> {
  held.started++;
  return new Promise<T>((resolve) => held.release.push(() => resolve(value)));
}
const renderer: Renderer = {
  inspectPdf: () => hold({ pages: [{ width: 595, height: 842 }] }),
  pdf: () => hold(new TextEncoder().encode('%PDF-held')),
  docx: () => hold(new Uint8Array([0x50, 0x4b])),
  sanitise: (html) => hold(html),
};

const API = { 'x-service-key': DEMO.apiKey };
let t: TestSandbox;
let doc: any;
let html: string;
let pdf: string;
let link: string;
beforeAll(async () => {
  t = await testSandbox(FROZEN, {
    port: 0,
    renderer: queuedRenderer({ ...renderer, close: async () => {} }, { concurrency: 1, waiting: 0 }),
  });
  doc = (await t.request('/openapi.json')).body;
  const create = async (contract: object, recipients: object[]) =>
    (
      await t.post(
        '/api/contract',
        { data: { action: 'create', clientKey: DEMO.clientKey, contract, recipients } },
        { apiKey: DEMO.apiKey },
      )
    ).body.contract.contractKey as string;
  html = await create({ name: 'Lease', value: '<p>Rent <placeholder1></placeholder1></p>' }, [RECIPIENT]);
  // Not sent: it still takes a PDF.
  pdf = await create({ name: 'Scan', contractType: 'pdf' }, []);
  link = (await t.control(`/contracts/${html}`)).body.recipients[0].recipientKey;
});
afterAll(() => t.close());

const RECIPIENT = { fullname: 'Ada Lovelace', email: 'ada@example.com', action: 'sign' };

async function form(): Promise<FormData> {
  const body = new FormData();
  body.set('pdf', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'scan.pdf');
  return body;
}

/** Every document route, as a request that reaches its work; `renders` when that work goes through the queue. */
const ROUTES: {
  path: string;
  method: 'get' | 'post';
  renders: boolean;
  send: () => Promise<RequestInit & { url: string }>;
}[] = [
  {
    path: '/api/download_pdf',
    method: 'get',
    renders: true,
    send: async () => ({ url: `/api/download_pdf?contractKey=${html}&clientKey=${DEMO.clientKey}`, headers: API }),
  },
  {
    path: '/api/download_docx',
    method: 'get',
    renders: true,
    send: async () => ({ url: `/api/download_docx?contractKey=${html}&clientKey=${DEMO.clientKey}`, headers: API }),
  },
  {
    path: '/api/recipient_download_pdf',
    method: 'get',
    renders: true,
    send: async () => ({ url: `/api/recipient_download_pdf?shareLink=${link}` }),
  },
  {
    path: '/api/upload_pdf',
    method: 'post',
    renders: true,
    send: async () => ({
      url: `/api/upload_pdf?contractKey=${pdf}&clientKey=${DEMO.clientKey}`,
      method: 'POST',
      headers: API,
      body: await form(),
    }),
  },
  {
    path: '/api/contract_email_sign_pdf',
    method: 'post',
    renders: true,
    send: async () => ({
      url: `/api/contract_email_sign_pdf?contractKey=${html}&clientKey=${DEMO.clientKey}`,
      method: 'POST',
      headers: API,
      body: await form(),
    }),
  },
  {
    // A PDF contract with no file yet: the stored file is served without the renderer (404 here).
    path: '/api/contract_pdf/{contractKey}',
    method: 'get',
    renders: false,
    send: async () => ({ url: `/api/contract_pdf/${pdf}?clientKey=${DEMO.clientKey}`, headers: API }),
  },
];

/** Starts a job that holds the queue's one slot until `release`. */
async function occupy(): Promise<{ release: () => Promise<void> }> {
  const before = held.started;
  const answer = t.sandbox.app.request(`/api/download_pdf?contractKey=${html}&clientKey=${DEMO.clientKey}`, {
    headers: API,
  });
  await vi.waitFor(() => expect(held.started).toBe(before + 1), { timeout: 15_000 });
  return {
    release: async () => {
      held.release.shift()!();
      expect((await answer).status).toBe(200);
    },
  };
}

describe("the render queue's 503 in the OpenAPI document", () => {
  it('is declared, with a required Retry-After and the error body, by every operation that renders', () => {
    for (const route of ROUTES) {
      const busy = doc.paths[route.path][route.method].responses['503'];
      expect(busy.content['application/json'].schema, route.path).toEqual({ $ref: '#/components/schemas/Error' });
      expect(busy.headers['Retry-After'], route.path).toMatchObject({
        required: true,
        schema: { type: 'integer' },
      });
      // Only the operations that render say the renderer is busy, with the queue's bounds.
      expect(busy.description.includes('renderer is busy'), route.path).toBe(route.renders);
      if (route.renders)
        expect(busy.description).toContain(
          `draws ${RENDER_QUEUE.concurrency} document at a time and ${RENDER_QUEUE.waiting} more requests wait`,
        );
    }
  });

  it('is what each rendering operation answers while the queue is full, and only those answer it', async () => {
    const slot = await occupy();
    for (const route of ROUTES) {
      const { url, ...init } = await route.send();
      // t.request checks the answer against the document: status, body, and the headers it declares required.
      const answer = await t.request(url, init);
      if (route.renders) {
        expect(answer.status, route.path).toBe(503);
        expect(answer.body).toMatchObject({ code: 503, message: expect.stringMatching(/renderer is busy/) });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      } else expect(answer.status, route.path).not.toBe(503);
    }
    await slot.release();
  });

  it('frees the slot after a busy answer: the next job starts at once and answers its file', async () => {
    const done = t.sandbox.app.request(`/api/download_docx?contractKey=${html}&clientKey=${DEMO.clientKey}`, {
      headers: API,
    });
    await vi.waitFor(() => expect(held.release.length).toBe(1), { timeout: 15_000 });
    held.release.shift()!();
    expect((await done).status).toBe(200);
  });
});
