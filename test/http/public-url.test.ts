/**
 * `--public-url` and the absolute URLs the sandbox hands out: a PDF's `value` is a full URL a browser or Node's
 * fetch can load with no credentials, on the origin the request came in on unless `--public-url` says otherwise;
 * request emails link to the recipient page on the same base.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/config/cli-args.js';
import { ConfigError, resolveConfig } from '../../src/config/options.js';
import { documentPath, download, makePdf, upload } from '../support/documents-kit.js';
import { DEMO, type TestSandbox, testSandbox } from '../support/helpers.js';
import { createContract } from '../support/contract-walk.js';

const API = { apiKey: DEMO.apiKey } as const;
const Q = `clientKey=${DEMO.clientKey}`;

describe('the --public-url option', () => {
  it.each<[string[], NodeJS.ProcessEnv, object]>([
    [['--public-url', 'https://sandbox.example.test'], {}, { publicUrl: 'https://sandbox.example.test' }],
    [[], { ESIGN_SANDBOX_PUBLIC_URL: 'http://sandbox:4010' }, { publicUrl: 'http://sandbox:4010' }],
    [
      ['--public-url', 'https://a.test'],
      { ESIGN_SANDBOX_PUBLIC_URL: 'https://b.test' },
      { publicUrl: 'https://a.test' },
    ],
  ])('is read from %j %j', (argv, env, options) => {
    expect(parseCli(argv, env).options).toEqual(options);
  });

  it.each([
    ['https://sandbox.example.test/', 'https://sandbox.example.test'],
    ['http://localhost:8080/esign//', 'http://localhost:8080/esign'],
    ['HTTPS://Sandbox.Example.Test', 'https://sandbox.example.test'],
  ])('keeps %s as %s', (given, kept) => {
    expect(resolveConfig({ publicUrl: given }, { port: 0 }).publicUrl).toBe(kept);
  });

  it.each([
    ['sandbox.example.test', 'must be an http(s) URL'],
    ['ftp://sandbox.example.test', 'must start with http:// or https://'],
    ['https://sandbox.example.test/?a=1', 'no query, fragment or user'],
    ['https://user:pw@sandbox.example.test', 'no query, fragment or user'],
  ])('refuses %s', (given, message) => {
    expect(() => resolveConfig({ publicUrl: given }, { port: 0 })).toThrow(ConfigError);
    expect(() => resolveConfig({ publicUrl: given }, { port: 0 })).toThrow(message);
  });
});

/** A PDF contract with a file uploaded; answers its key and the file. */
async function pdfContract(t: TestSandbox, name: string, pages = 1): Promise<{ key: string; bytes: Uint8Array }> {
  const made = await t.post(
    '/api/contract',
    { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name, contractType: 'pdf' } } },
    API,
  );
  const key = made.body.contract.contractKey as string;
  const bytes = await makePdf(pages);
  expect((await upload(t, `contractKey=${key}&${Q}`, bytes, API)).status).toBe(201);
  return { key, bytes };
}

async function readValue(t: TestSandbox, contractKey: string, origin = 'http://localhost'): Promise<string> {
  const res = await t.request(`${origin}/api/contract`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': DEMO.apiKey },
    body: JSON.stringify({ data: { action: 'read', clientKey: DEMO.clientKey, contract: { contractKey } } }),
  });
  expect(res.status).toBe(200);
  return res.body.contract.value;
}

describe('document URLs without --public-url', () => {
  let t: TestSandbox;
  beforeAll(async () => {
    // The host names a proxy or a container network gives the sandbox are allowed as --allowed-host says.
    t = await testSandbox({ allowedHosts: ['sandbox', '10.0.0.7'] });
  });
  afterAll(() => t.close());

  it('are on the origin the request came in on', async () => {
    const { key, bytes } = await pdfContract(t, 'Origin');
    for (const origin of ['http://localhost', 'http://sandbox:4010', 'https://10.0.0.7:8443']) {
      expect(await readValue(t, key, origin)).toBe(`${origin}${documentPath('contract', key, bytes)}`);
    }
  });

  it('serve the file with no credentials, and nothing for a wrong hash or another contract', async () => {
    const { key, bytes } = await pdfContract(t, 'No credentials');
    const other = await pdfContract(t, 'Another', 3);
    const url = await readValue(t, key);
    const file = await download(t, url);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true);
    const sha = url.split('/').pop()!;
    for (const wrong of [
      url.replace(/[0-9a-f]{64}/, '0'.repeat(64)),
      url.replace(/\.pdf$/, ''),
      `/api/contract_pdf/${other.key}/${sha}`,
      `/api/template_pdf/${key}/${sha}`,
      `/api/contract_pdf/nosuchcontract/${sha}`,
    ]) {
      const res = await download(t, wrong);
      expect([wrong, res.status, res.json]).toEqual([wrong, 404, { code: 404, message: 'Document not found' }]);
    }
  });

  it('stop working once a new PDF replaces the file', async () => {
    const { key } = await pdfContract(t, 'Replaced');
    const before = await readValue(t, key);
    const newer = await makePdf(2);
    expect((await upload(t, `contractKey=${key}&${Q}`, newer, API)).status).toBe(201);
    const after = await readValue(t, key);
    expect(after).not.toBe(before);
    expect((await download(t, before)).status).toBe(404);
    expect(Buffer.from((await download(t, after)).bytes).equals(Buffer.from(newer))).toBe(true);
  });
});

describe('with --public-url', () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await testSandbox({ publicUrl: 'https://sandbox.example.test/esign/', clock: 'frozen' });
  });
  afterAll(() => t.close());

  it('document URLs use it whatever origin the request came in on', async () => {
    const { key, bytes } = await pdfContract(t, 'Behind a proxy');
    const path = documentPath('contract', key, bytes);
    expect(await readValue(t, key, 'http://127.0.0.1:4010')).toBe(`https://sandbox.example.test/esign${path}`);
    const uploaded = await upload(t, `contractKey=${key}&${Q}`, bytes, API);
    expect(uploaded.body.contract.value).toBe(`https://sandbox.example.test/esign${path}`);
  });

  it("request emails link to the recipient's page on it", async () => {
    const made = await createContract(
      t,
      API,
      { name: 'Linked', value: '<p>Terms</p>' },
      [{ fullname: 'Grace Hopper', email: 'grace.link@example.com', action: 'sign' }],
      { clientKey: DEMO.clientKey },
    );
    expect(made.status).toBe(201);
    const emails = await t.control('/emails?to=grace.link@example.com');
    const [email] = emails.body.emails;
    expect(email.link).toBe(`https://sandbox.example.test/esign/sharing/${email.recipientKey}`);
  });
});
