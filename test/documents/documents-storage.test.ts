/**
 * Where uploaded files live: in memory per platform; with --data beside the data file (and read back on the next
 * start); in snapshots (base64, only the files records refer to); gone after a reset.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, FROZEN, testSandbox } from '../support/helpers.js';
import { download, makePdf, upload } from '../support/documents-kit.js';

const API = { apiKey: DEMO.apiKey } as const;
const Q = `clientKey=${DEMO.clientKey}`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'esign-docs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function pdfContractWithFile(t: Awaited<ReturnType<typeof testSandbox>>, bytes: Uint8Array): Promise<string> {
  const made = await t.post(
    '/api/contract',
    { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'Stored', contractType: 'pdf' } } },
    API,
  );
  const key = made.body.contract.contractKey;
  expect((await upload(t, `contractKey=${key}&${Q}`, bytes, API)).status).toBe(201);
  return key;
}

describe('with --data', () => {
  it('keeps the file beside the data file, written whole, and serves it again after a restart', async () => {
    const data = join(dir, 'state.json');
    const bytes = await makePdf(2);
    const sha = createHash('sha256').update(bytes).digest('hex');
    let t = await testSandbox({ ...FROZEN, data });
    const key = await pdfContractWithFile(t, bytes);
    const platformId = t.sandbox.services.store.contracts.get(key)!.platformId;
    await t.close();
    expect(readdirSync(join(`${data}.files`, platformId))).toEqual([`${sha}.pdf`]);

    t = await testSandbox({ ...FROZEN, data });
    try {
      const file = await download(t, `/api/contract_pdf/${key}?${Q}`, API);
      expect(file.status).toBe(200);
      expect(Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true);
      expect((await download(t, `/api/download_pdf?contractKey=${key}&${Q}`, API)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('a full reset removes the files', async () => {
    const data = join(dir, 'state.json');
    const t = await testSandbox({ ...FROZEN, data });
    try {
      await pdfContractWithFile(t, await makePdf(1));
      expect(existsSync(`${data}.files`)).toBe(true);
      expect((await t.control('/reset', {})).status).toBe(200);
      expect(existsSync(`${data}.files`)).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('snapshots', () => {
  it('carry the files a snapshot refers to, base64 under "<platformId>/<sha256>", and put them back', async () => {
    const t = await testSandbox(FROZEN);
    try {
      const first = await makePdf(1);
      const bytes = await makePdf(3);
      const key = await pdfContractWithFile(t, first);
      // Before it is sent, the contract's file can be replaced: the first file is no longer referred to.
      expect((await upload(t, `contractKey=${key}&${Q}`, bytes, API)).status).toBe(201);
      const snapshot = (await t.control('/state')).body;
      const platformId = snapshot.store.contracts[key].platformId;
      const sha = createHash('sha256').update(bytes).digest('hex');
      expect(Object.keys(snapshot.documents)).toEqual([`${platformId}/${sha}`]);
      expect(Buffer.from(snapshot.documents[`${platformId}/${sha}`], 'base64').equals(Buffer.from(bytes))).toBe(true);

      await t.control('/reset', {});
      expect((await download(t, `/api/contract_pdf/${key}?${Q}`, API)).status).toBe(404);
      expect((await t.control('/state', snapshot, 'PUT')).status).toBe(200);
      const file = await download(t, `/api/contract_pdf/${key}?${Q}`, API);
      expect(Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true);
    } finally {
      await t.close();
    }
  });

  it.each([
    [
      'a file that does not match its hash',
      (s: any, name: string) => ({ ...s, documents: { [name]: Buffer.from('not it').toString('base64') } }),
      'does not match its SHA-256',
    ],
    ['a contract whose file is missing', (s: any) => ({ ...s, documents: {} }), 'the snapshot does not carry it'],
    [
      'a badly named entry',
      (s: any, name: string) => ({ ...s, documents: { ...s.documents, 'no-slash': s.documents[name] } }),
      'Must be "<platformId>/<sha256>"',
    ],
  ])('refuse %s, changing nothing', async (_name, edit, message) => {
    const t = await testSandbox(FROZEN);
    try {
      const key = await pdfContractWithFile(t, await makePdf(1));
      const snapshot = (await t.control('/state')).body;
      const name = Object.keys(snapshot.documents)[0]!;
      const res = await t.control('/state', edit(snapshot, name), 'PUT');
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { message: string }) => e.message).join(' ')).toContain(message);
      expect((await download(t, `/api/contract_pdf/${key}?${Q}`, API)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
