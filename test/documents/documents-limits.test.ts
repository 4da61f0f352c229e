/**
 * Documents under hostile input over the API (docs/documents.md "Work limits", docs/errors.md
 * "Limits"): long text refused at the door, signature images decoded when given, compression bombs refused, uploads
 * that race a send or each other, and every thrown value answered as JSON.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createApp } from '../../src/http/app.js';
import { DocumentStore, sha256Hex } from '../../src/store/documents.js';
import { uploadPdf } from '../../src/domain/documents.js';
import { inProcessRenderer } from '../../src/render/renderer.js';
import { apiContext } from '../../src/domain/context.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { download, makePdf, upload } from '../support/documents-kit.js';

const API = { apiKey: DEMO.apiKey } as const;
const Q = `clientKey=${DEMO.clientKey}`;
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

let t: TestSandbox;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
});
afterAll(() => t.close());

async function contract(fields: Record<string, unknown>): Promise<string> {
  const res = await t.post(
    '/api/contract',
    { data: { action: 'create', clientKey: DEMO.clientKey, contract: fields } },
    API,
  );
  expect(res.status).toBe(201);
  return res.body.contract.contractKey;
}

async function sendTo(contractKey: string, fullname = 'Alan Turing'): Promise<string> {
  const sent = await t.post(
    '/api/recipient',
    {
      data: {
        action: 'send',
        clientKey: DEMO.clientKey,
        contractKey,
        recipients: [{ fullname, email: 'alan@example.com', action: 'sign', position: 1 }],
      },
    },
    API,
  );
  expect(sent.status).toBe(200);
  const list = await t.post(
    '/api/recipient',
    { data: { action: 'list', clientKey: DEMO.clientKey, contractKey } },
    API,
  );
  return list.body.recipients[0].recipientKey;
}

/** A PNG header of any size (its IHDR says width × height), with no image data behind it. */
function pngHeader(width: number, height: number): string {
  const bytes = Buffer.from(PNG_1x1, 'base64');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}

describe('text fields have length limits', () => {
  it.each([
    ['a contract name', { contract: { name: 'n'.repeat(501), value: '<p>x</p>' } }, 'data.contract.name', 500],
    ['contract HTML', { contract: { name: 'Big', value: 'x'.repeat(1_000_001) } }, 'data.contract.value', 1_000_000],
  ])('%s past its limit: 400 naming the field and the limit', async (_name, fields, path, limit) => {
    const res = await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey: DEMO.clientKey, ...fields } },
      API,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`${path} is too long`);
    expect(res.body.message).toContain(`the limit is ${limit}`);
    expect(res.body.errors[0].path).toBe(path);
  });

  it('refuses a 200,000-character signer name and placeholder value, and accepts them at the limit', async () => {
    const key = await contract({ name: 'Names', value: '<p><placeholder1>x</placeholder1></p>' });
    const refused = await t.post(
      '/api/recipient',
      {
        data: {
          action: 'send',
          clientKey: DEMO.clientKey,
          contractKey: key,
          recipients: [{ fullname: 'N'.repeat(200_000), email: 'n@example.com', action: 'sign', position: 1 }],
        },
      },
      API,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toEqual({
      path: 'data.recipients.0.fullname',
      message: 'Too long: 200000 characters, the limit is 500',
    });
    const value = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'create',
          clientKey: DEMO.clientKey,
          contractKey: key,
          placeholders: [{ name: 'Long', value: 'v'.repeat(200_000) }],
        },
      },
      API,
    );
    expect(value.status).toBe(400);
    expect(value.body.errors[0].message).toBe('Too long: 200000 characters, the limit is 100000');
    // At the limits, the document is made: the line breaker and the audit trail are linear.
    const recipient = await sendTo(key, 'N'.repeat(500));
    expect((await t.control(`/recipients/${recipient}/sign`, {})).status).toBe(200);
    const file = await download(t, `/api/download_pdf?contractKey=${key}&${Q}`, API);
    expect(file.status).toBe(200);
  });
});

describe('drawn signatures are decoded when given', () => {
  it.each([
    ['an empty PNG', 'AAAA', /not a PNG file/],
    ['a 12,000×12,000 PNG', pngHeader(12_000, 12_000), /12000×12000 pixels, larger than the limit of 2000×1000/],
    ['a PNG without image data', pngHeader(1, 1).slice(0, 44), /cut short|no image data|not a PNG/],
  ])('%s: 400, and the contract stays signable', async (_name, base64, message) => {
    const key = await contract({ name: 'Drawn', value: '<p><sign1>signature</sign1></p>' });
    const recipient = await sendTo(key);
    const res = await t.control(`/recipients/${recipient}/sign`, { signature: `data:image/png;base64,${base64}` });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(
      (await t.control(`/recipients/${recipient}/sign`, { signature: `data:image/png;base64,${PNG_1x1}` })).status,
    ).toBe(200);
    expect((await download(t, `/api/download_pdf?contractKey=${key}&${Q}`, API)).status).toBe(200);
  });

  it('answers a thrown string as a JSON 500 that says what was thrown, and reports it', async () => {
    const reported: unknown[] = [];
    const app = createApp({
      services: t.sandbox.services,
      maxBodyBytes: 1024,
      apiKeyHeader: 'x-service-key',
      control: new Hono(),
      recorders: [
        async () => {
          throw 'a decoder gave up';
        },
      ],
      onInternalError: (error) => reported.push(error),
    });
    const res = await app.request('/api/contract');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(((await res.json()) as { message: string }).message).toContain('a decoder gave up');
    expect(String(reported[0])).toContain('a decoder gave up');
  });
});

/** A one-page PDF with an object (or cross-reference) stream that inflates to `inflated` bytes. */
function packedPdf(kind: 'ObjStm' | 'XRef', inflated: number): Uint8Array {
  const data = deflateSync(Buffer.alloc(inflated, 0x20));
  const dict =
    kind === 'ObjStm'
      ? `<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >>`
      : `<< /Type /XRef /Size 5 /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /Length ${data.length} >>`;
  const head = Buffer.from(
    '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
      `3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n4 0 obj ${dict}\nstream\n`,
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\ntrailer << /Root 1 0 R /Size 5 >>\n%%EOF\n', 'latin1');
  return new Uint8Array(Buffer.concat([head, data, tail]));
}

describe('compression bombs are refused before parsing', () => {
  it.each(['ObjStm', 'XRef'] as const)('a %s stream inflating to 40 MB: 413 naming the limit', async (kind) => {
    const key = await contract({ name: `Bomb ${kind}`, contractType: 'pdf' });
    const bytes = packedPdf(kind, 40 * 1024 * 1024);
    expect(bytes.byteLength).toBeLessThan(100_000);
    const res = await upload(t, `contractKey=${key}&${Q}`, bytes, API);
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/inflate past 33554432 bytes/);
    expect(t.sandbox.services.store.contracts.get(key)!.document).toBeUndefined();
  });
});

describe('uploads racing a send or each other', () => {
  it('an upload still being read when the contract is sent changes nothing (409)', async () => {
    const key = await contract({ name: 'Race', contractType: 'pdf' });
    const first = await makePdf(1);
    expect((await upload(t, `contractKey=${key}&${Q}`, first, API)).status).toBe(201);
    const before = t.sandbox.services.store.contracts.get(key)!.document;
    // A renderer whose reading of the file waits until the contract has been sent.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = inProcessRenderer();
    const renderer = { ...slow, inspectPdf: async (bytes: Uint8Array) => (await gate, slow.inspectPdf(bytes)) };
    const client = t.sandbox.services.store.clients.get(DEMO.clientKey)!;
    const ctx = apiContext(t.sandbox.services, client.platformId, { client });
    const documents = await DocumentStore.open();
    const bytes = await makePdf(2);
    const file = { bytes, sha256: sha256Hex(bytes) };
    const uploading = uploadPdf(ctx, documents, client, { contractKey: key }, renderer, file).then(
      () => 'kept',
      (error: { status?: number }) => error.status,
    );
    await sendTo(key);
    release();
    expect(await uploading).toBe(409);
    expect(t.sandbox.services.store.contracts.get(key)!.document).toEqual(before);
  });

  it('20 identical uploads at once with --data all answer 201, and one file is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-race-'));
    const s = await testSandbox({ ...FROZEN, data: join(dir, 'state.json') });
    try {
      const keys: string[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await s.post(
          '/api/contract',
          {
            data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: `Same ${i}`, contractType: 'pdf' } },
          },
          API,
        );
        keys.push(res.body.contract.contractKey);
      }
      const bytes = await makePdf(3);
      const answers = await Promise.all(keys.map((k) => upload(s, `contractKey=${k}&${Q}`, bytes, API)));
      expect(answers.map((a) => a.status)).toEqual(keys.map(() => 201));
      const platform = readdirSync(join(dir, 'state.json.files'))[0]!;
      expect(readdirSync(join(dir, 'state.json.files', platform))).toHaveLength(1);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
