/**
 * upload_pdf refusals: what is wrong is named, with the right status, and nothing changes. Tenants and clients
 * never reach each other's contracts or files. A light fuzz of the multipart endpoint.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEMO, type TestSandbox, testSandbox } from '../support/helpers.js';
import { download, makePdf, upload } from '../support/documents-kit.js';
import { parseCli } from '../../src/config/cli-args.js';
import { ConfigError, resolveConfig } from '../../src/config/options.js';

const API = { apiKey: DEMO.apiKey } as const;
const Q = `clientKey=${DEMO.clientKey}`;
const ENCRYPTED = new Uint8Array(readFileSync(new URL('./encrypted.pdf', import.meta.url)));

let t: TestSandbox;
let contractKey: string;
let pdf: Uint8Array;

beforeAll(async () => {
  t = await testSandbox({ maxUpload: '64kb' });
  const res = await t.post(
    '/api/contract',
    { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'Bad uploads', contractType: 'pdf' } } },
    API,
  );
  contractKey = res.body.contract.contractKey;
  pdf = await makePdf(1);
});
afterAll(() => t.close());

async function unchanged(): Promise<void> {
  const state = await t.control(`/contracts/${contractKey}`);
  expect(state.body.value).toBe('');
  expect((await download(t, `/api/contract_pdf/${contractKey}?${Q}`, API)).status).toBe(404);
}

describe('bad uploads are refused and change nothing', () => {
  it.each([
    [
      'a file that is not a PDF',
      () => new TextEncoder().encode('hello, this is a text file'),
      400,
      'is not a PDF: it does not start with "%PDF-"',
    ],
    ['an empty file', () => new Uint8Array(), 400, 'is empty'],
    ['a truncated PDF', () => pdf.subarray(0, Math.floor(pdf.byteLength / 2)), 400, 'truncated or damaged'],
    [
      'a PDF whose body is garbage',
      () => new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Nonsense >>\ngarbage\n%%EOF\n'),
      400,
      'cannot be read',
    ],
    ['an encrypted PDF', () => ENCRYPTED, 400, 'is encrypted (password-protected)'],
    [
      'a PDF over the upload limit',
      () => new Uint8Array(70 * 1024).fill(37),
      413,
      'larger than the upload limit of 65536 bytes',
    ],
  ])('%s', async (_name, file, status, message) => {
    const res = await upload(t, `contractKey=${contractKey}&${Q}`, file(), API);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: status, message: expect.stringContaining(message) });
    await unchanged();
  });

  it('a body far over the limit is refused from its declared length', async () => {
    const res = await t.request(`/api/upload_pdf?contractKey=${contractKey}&${Q}`, {
      method: 'POST',
      headers: {
        'x-service-key': DEMO.apiKey,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(10 * 1024 * 1024),
      },
      body: 'x'.repeat(10),
    });
    expect(res.status).toBe(413);
  });

  it('the file under another field name: 400 naming the field found', async () => {
    const res = await upload(t, `contractKey=${contractKey}&${Q}`, pdf, API, 'file');
    expect(res).toMatchObject({
      status: 400,
      body: {
        message: expect.stringContaining('No field "pdf" in the form (got "file")'),
        errors: [{ path: 'pdf', message: 'Required' }],
      },
    });
    await unchanged();
  });

  it('the pdf field as text rather than a file: 400', async () => {
    const form = new FormData();
    form.set('pdf', 'JVBERi0xLjcK');
    const res = await t.request(`/api/upload_pdf?contractKey=${contractKey}&${Q}`, {
      method: 'POST',
      headers: { 'x-service-key': DEMO.apiKey },
      body: form,
    });
    expect(res).toMatchObject({ status: 400, body: { message: expect.stringContaining('must be a file') } });
  });

  it('a JSON body instead of multipart: 415', async () => {
    const res = await t.post(`/api/upload_pdf?contractKey=${contractKey}&${Q}`, { pdf: 'x' }, API);
    expect(res).toMatchObject({ status: 415, body: { message: expect.stringContaining('multipart/form-data') } });
  });

  it('a multipart body cut short: 400', async () => {
    const res = await t.request(`/api/upload_pdf?contractKey=${contractKey}&${Q}`, {
      method: 'POST',
      headers: { 'x-service-key': DEMO.apiKey, 'content-type': 'multipart/form-data; boundary=abc' },
      body: '--abc\r\nContent-Disposition: form-data; name="pdf"; filename="a.pdf"\r\n\r\n%PDF-1.7 and then noth',
    });
    expect(res.status).toBe(400);
    await unchanged();
  });

  it('a multipart body cut short after its file began, in chunks a turn apart: 400, and nothing thrown', async () => {
    const thrown: unknown[] = [];
    const hear = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', hear);
    const head = '--abc\r\nContent-Disposition: form-data; name="pdf"; filename="a.pdf"\r\n\r\n%PDF-1.7 ';
    const chunks = [head, 'x'.repeat(1000), 'and then noth'].map((part) => new TextEncoder().encode(part));
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
        await new Promise((resolve) => setImmediate(resolve));
      },
    });
    try {
      const res = await t.request(`/api/upload_pdf?contractKey=${contractKey}&${Q}`, {
        method: 'POST',
        headers: { 'x-service-key': DEMO.apiKey, 'content-type': 'multipart/form-data; boundary=abc' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(400);
      await new Promise((resolve) => setImmediate(resolve));
      expect(thrown).toEqual([]);
    } finally {
      process.off('uncaughtException', hear);
    }
    await unchanged();
  });

  it.each([
    ['no contractKey or templateKey', `${Q}`, 'contractKey', 'contractKey (or templateKey) is required'],
    ['both keys', `contractKey=${'a'}&templateKey=b&${Q}`, 'templateKey', 'not both'],
    ['no clientKey with the API key', 'contractKey=KEY', 'clientKey', 'clientKey is required'],
  ])('%s: 400 naming it', async (_name, query, path, message) => {
    const res = await upload(t, query.replace('KEY', contractKey), pdf, API);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(res.body.errors[0].path).toBe(path);
  });

  it('no credentials: 401; an HTML contract: 400; a GET: 405', async () => {
    expect((await upload(t, `contractKey=${contractKey}&${Q}`, pdf)).status).toBe(401);
    const html = await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'HTML', value: '<p>x</p>' } } },
      API,
    );
    const res = await upload(t, `contractKey=${html.body.contract.contractKey}&${Q}`, pdf, API);
    expect(res).toMatchObject({ status: 400, body: { message: expect.stringContaining('is an HTML contract') } });
    expect((await t.request(`/api/upload_pdf?contractKey=${contractKey}&${Q}`)).status).toBe(405);
  });

  it('contractType "pdf" with a value (the editor sends its empty content) makes a PDF contract with no content yet', async () => {
    const res = await t.post(
      '/api/contract',
      {
        data: {
          action: 'create',
          clientKey: DEMO.clientKey,
          contract: { name: 'x', contractType: 'pdf', value: '<div></div>' },
        },
      },
      API,
    );
    expect(res.status).toBe(201);
    const state = await t.control(`/contracts/${res.body.contract.contractKey}`);
    expect(state.body.value).toBe('');
  });
});

describe('clients and tenants are kept apart', () => {
  let otherClient: string;
  let otherPlatform: { apiKey: string };

  beforeAll(async () => {
    expect((await upload(t, `contractKey=${contractKey}&${Q}`, pdf, API)).status).toBe(201);
    const client = await t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: 'Other client' } } },
      API,
    );
    otherClient = client.body.client.clientKey;
    otherPlatform = (await t.control('/platforms', {})).body;
  });

  it.each([
    ['upload', (ck: string) => upload(t, `contractKey=${contractKey}&clientKey=${ck}`, pdf, API)],
    ['download_pdf', (ck: string) => download(t, `/api/download_pdf?contractKey=${contractKey}&clientKey=${ck}`, API)],
    [
      'download_docx',
      (ck: string) => download(t, `/api/download_docx?contractKey=${contractKey}&clientKey=${ck}`, API),
    ],
    ['the uploaded file', (ck: string) => download(t, `/api/contract_pdf/${contractKey}?clientKey=${ck}`, API)],
  ])('another client of the platform cannot reach the contract: %s answers 404', async (_name, call) => {
    expect((await call(otherClient)).status).toBe(404);
  });

  it('a client token of another client gets 404 for the contract and its file', async () => {
    const token = await t.clientToken(otherClient);
    for (const path of [`/api/download_pdf?contractKey=${contractKey}`, `/api/contract_pdf/${contractKey}`]) {
      expect((await download(t, path, { bearer: token })).status).toBe(404);
    }
    expect((await upload(t, `contractKey=${contractKey}`, pdf, { bearer: token })).status).toBe(404);
  });

  it('another platform cannot name the demo client at all', async () => {
    const res = await download(t, `/api/contract_pdf/${contractKey}?${Q}`, { apiKey: otherPlatform.apiKey });
    expect(res.status).toBe(404);
  });

  it("the same file uploaded by two platforms is kept for each: resetting one leaves the other's", async () => {
    const auth = { apiKey: otherPlatform.apiKey };
    const client = await t.post('/api/client', { data: { action: 'create', client: { fullname: 'Tenant B' } } }, auth);
    const ck = client.body.client.clientKey;
    const made = await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey: ck, contract: { name: 'B', contractType: 'pdf' } } },
      auth,
    );
    const key = made.body.contract.contractKey;
    expect((await upload(t, `contractKey=${key}&clientKey=${ck}`, pdf, auth)).status).toBe(201);
    expect((await t.control('/reset', { apiKey: otherPlatform.apiKey })).status).toBe(200);
    expect((await download(t, `/api/contract_pdf/${contractKey}?${Q}`, API)).status).toBe(200);
  });
});

describe('fuzzing the multipart endpoint', () => {
  it('answers any body with a JSON 201, 400, 404, 413 or 415, and never breaks', async () => {
    const made = await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'Fuzz', contractType: 'pdf' } } },
      API,
    );
    const key = made.body.contract.contractKey;
    const part = fc.record({
      field: fc.constantFrom('pdf', 'file', 'PDF', ''),
      bytes: fc.oneof(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constant(pdf),
        fc.constant(ENCRYPTED),
        fc.constant(pdf.subarray(0, 300)),
      ),
      asFile: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { maxLength: 3 }),
        fc.option(fc.string({ maxLength: 40 })),
        async (parts, rawType) => {
          const form = new FormData();
          for (const p of parts)
            form.append(
              p.field,
              p.asFile ? new Blob([new Uint8Array(p.bytes)]) : Buffer.from(p.bytes).toString('latin1'),
              ...((p.asFile ? ['f.pdf'] : []) as [string]),
            );
          const init: RequestInit = { method: 'POST', headers: { 'x-service-key': DEMO.apiKey }, body: form };
          if (rawType !== null) {
            // A hand-made content type over the same bytes: wrong boundaries, wrong types.
            const body = new Uint8Array(await new Response(form).arrayBuffer());
            init.body = body;
            init.headers = { 'x-service-key': DEMO.apiKey, 'content-type': rawType };
          }
          const res = await t.request(`/api/upload_pdf?contractKey=${key}&${Q}`, init);
          expect([201, 400, 413, 415]).toContain(res.status);
          expect(res.body.code === '201' || res.body.code === res.status).toBe(true);
        },
      ),
      { numRuns: 60, seed: 16 },
    );
    expect((await t.control('/health')).status).toBe(200);
  });
});

describe('the upload limit option', () => {
  it('is 15 MB by default and set with --max-upload or ESIGN_SANDBOX_MAX_UPLOAD', () => {
    expect(resolveConfig({}, { port: 0 }).maxUploadBytes).toBe(15 * 1024 * 1024);
    expect(resolveConfig(parseCli(['--max-upload', '20mb'], {}).options, { port: 0 }).maxUploadBytes).toBe(
      20 * 1024 * 1024,
    );
    expect(resolveConfig(parseCli([], { ESIGN_SANDBOX_MAX_UPLOAD: '512kb' }).options, { port: 0 }).maxUploadBytes).toBe(
      512 * 1024,
    );
    expect(() => resolveConfig({ maxUpload: 'lots' }, { port: 0 })).toThrow(ConfigError);
    expect(() => resolveConfig({ maxUpload: 'lots' }, { port: 0 })).toThrow('max-upload must be a positive size');
  });
});
