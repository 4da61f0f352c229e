/**
 * The vendor's owner-side components replayed against the sandbox, each request as their source builds it
 * (test/support/owner-components.ts), asserting on the fields those components read (docs/compatibility.md): the
 * contract list, a new contract, the editor, placeholders, sending, status, duplicate, rename, convert, archive,
 * templates, PDFs, the owner's signing, share links and the AI assistant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../support/documents-kit.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { type OwnerAuth, ownerComponents } from '../support/owner-components.js';
import { DRAWN_SIGNATURE, IP_INFO } from '../support/recipient-view.js';

let t: TestSandbox;
let token: string;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
  token = await t.clientToken();
});
afterAll(() => t.close());

const API_KEY: OwnerAuth = { apiKey: DEMO.apiKey, clientKey: DEMO.clientKey };
/** The two ways the components authenticate; the token is made in beforeAll, so it is read when a test runs. */
const modes = () =>
  [
    ['an API key', () => API_KEY],
    ['a client token', (): OwnerAuth => ({ token })],
  ] as const;

/** A contract made as ContractEditor's Continue makes it, with one signer. */
async function newContract(c: ReturnType<typeof ownerComponents>, name: string, email = 'grace@example.com') {
  const res = await c.create(
    { name, value: '<p>Terms for <placeholder1>Name1</placeholder1></p>', templateKey: '', contractType: 'empty' },
    {
      recipients: [
        { action: 'sign', customMessage: '', fullname: 'Grace Hopper', email, position: 0, type: undefined },
      ],
    },
  );
  expect(res.status).toBe(201);
  return res.body.contract.contractKey as string;
}

describe.each(modes())('ContractList and ContractEditor with %s', (_name, authOf) => {
  const c = () => ownerComponents(t, authOf());

  it('a new editor asks for the events of no contract and gets an empty list', async () => {
    expect((await c().eventStatus()).body.map((s: { id: number }) => s.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const events = await c().events('');
    expect([events.status, events.body]).toEqual([200, []]);
    expect((await c().signs('')).body).toEqual([]);
  });

  it('Continue creates the contract; the editor reads it as an HTML contract (8) and finds no signatures', async () => {
    const key = await newContract(c(), 'From the editor');
    const read = await c().read(key);
    expect(read.body.contract).toMatchObject({ name: 'From the editor', status: 'Sent', contractType: 8 });
    expect(read.body.contract.value).toContain('<placeholder1>');
    expect(read.body.contract.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await c().signs(key)).body).toEqual([]);
    expect((await c().shareLinks(key)).status).toBe(200);
    const events = await c().events(key);
    expect(events.body.map((e: { status: number }) => e.status.toString())).toEqual(['1', '2']);
  });

  it('typing in the editor checks the value, then saves it (no toast, code 201 as a number)', async () => {
    const key = await newContract(c(), 'Typed');
    const check = await c().checkValue(key);
    expect(check.body.changed).toBe(false);
    const saved = await c().saveText(key, '<p>New terms</p>');
    expect([saved.status, saved.body.code]).toEqual([201, 201]);
    expect((await c().read(key)).body.contract.value).toBe('<p>New terms</p>');
  });

  it('the list shows the contract with a status event_status names, and an ISO create time', async () => {
    const key = await newContract(c(), 'Listed');
    const list = await c().listContracts('');
    const names = (await c().eventStatus()).body.map((s: { name: string }) => s.name);
    const row = list.body.contracts.find((r: { contractKey: string }) => r.contractKey === key);
    expect(row).toMatchObject({ name: 'Listed', status: 'Sent' });
    expect(names).toContain(row.status);
    expect(row.createTime).toMatch(/\.000Z$/);
  });

  it('placeholders: created, reassigned by echoed fillingType, listed with the fields the panels read', async () => {
    const key = await newContract(c(), 'Placeholders');
    const signer = (await c().recipients(key)).body.recipients[0];
    const made = await c().addPlaceholder(
      { contractKey: key },
      { name: 'Name1', value: '', type: 'internal', fillingType: 1, externalRecipientKey: '' },
    );
    expect(made.status).toBe(201);
    const { placeholderKey, id, createTime } = made.body.placeholder;
    expect([typeof placeholderKey, id, createTime]).toEqual(['string', expect.anything(), expect.any(String)]);
    expect((await c().changePlaceholder(key, { placeholderKey, fillingType: '2' })).status).toBe(201);
    const toSigner = await c().changePlaceholder(key, {
      placeholderKey,
      fillingType: 4,
      externalRecipientKey: signer.recipientKey,
    });
    expect(toSigner.status).toBe(201);
    const list = await c().placeholders({ contractKey: key });
    expect(list.body.placeholders.length).toBeGreaterThan(0);
    for (const p of list.body.placeholders) {
      // A numeric string, as the service's own list example shows it; the panels build their tags from it as text.
      expect(p.id).toMatch(/^\d+$/);
      expect(p.view).not.toBeNull();
      expect(typeof p.color).toBe('string');
      if (p.isSpecial) expect([1, 2, 3, 4]).toContain(p.specialType);
    }
    const mine = list.body.placeholders.find((p: { placeholderKey: string }) => p.placeholderKey === placeholderKey);
    expect(mine).toMatchObject({ fillingType: '4', externalRecipientKey: signer.recipientKey, view: 1 });
    expect(list.body.placeholders.filter((p: { view: number }) => p.view === 2)).toHaveLength(1);
  });

  it('send: the rows of the list posted back as received (position and id strings) answer result true', async () => {
    const key = await newContract(c(), 'Resent');
    const rows = (await c().recipients(key)).body.recipients.map((r: Record<string, unknown>) => ({
      id: r.id,
      fullname: r.fullname,
      email: r.email,
      customMessage: r.customMessage,
      position: r.position,
      action: r.action,
      recipientKey: r.recipientKey,
      shareLink: r.shareLink,
      isDone: r.isDone,
      type: r.type,
    }));
    expect(typeof rows[0].position).toBe('string');
    const added = { id: 2, fullname: 'Alan Turing', email: 'alan@example.com', customMessage: '', position: 1 };
    const sent = await c().send(key, [...rows, { ...added, action: 'sign', recipientKey: '' }]);
    expect([sent.status, sent.body.result]).toEqual([200, true]);
    const client = await c().clientRead();
    expect(client.body.client).toMatchObject({ fullname: expect.any(String), email: expect.any(String) });
  });

  it('duplicate, rename and convert answer code 201 as a number, as the list compares it', async () => {
    const key = await newContract(c(), 'Original');
    for (const res of [await c().duplicate(key), await c().rename(key, 'Renamed'), await c().convert(key, 'As T')]) {
      expect([res.status, res.body.code, typeof res.body.message]).toEqual([201, 201, 'string']);
    }
    expect((await c().read(key)).body.contract.name).toBe('Renamed');
  });

  it('archive answers the seed\'s "200", and the contract leaves the list for good', async () => {
    const key = await newContract(c(), 'To archive');
    const res = await c().archive(key);
    expect([res.status, res.body.code, res.body.message]).toEqual([200, '200', 'Contract archived']);
    const list = await c().listContracts();
    expect(list.body.contracts.map((r: { contractKey: string }) => r.contractKey)).not.toContain(key);
    expect((await c().read(key)).body.contract.status).toBe('Archived');
  });
});

describe('a PDF contract as the editor makes and opens it', () => {
  const c = () => ownerComponents(t, API_KEY);

  it("create with the editor's empty value, upload, then read as 7 with a value fetched with no headers", async () => {
    const created = await c().create({ name: 'Scan', value: '<div></div>', templateKey: '', contractType: 'pdf' });
    expect(created.status).toBe(201);
    const key = created.body.contract.contractKey;
    const pdf = await makePdf(2);
    expect((await c().uploadPdf({ contractKey: key }, pdf)).status).toBe(201);
    const read = await c().read(key);
    expect(read.body.contract.contractType.toString()).toBe('7');
    const file = await t.sandbox.app.request(read.body.contract.value);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
  });

  it('from a PDF template: the template URL beside its key and the type pdf make a PDF contract with its file', async () => {
    const made = await c().createTemplate('PDF form', '<div></div>', true);
    const templateKey = made.body.template.templateKey;
    const pdf = await makePdf(1);
    expect((await c().uploadPdf({ templateKey }, pdf)).status).toBe(201);
    const template = (await c().readTemplate(templateKey)).body.template;
    expect(template.isPdf).toBe(true);
    const created = await c().create({
      name: 'From PDF form',
      value: template.value,
      templateKey,
      contractType: 'pdf',
    });
    expect(created.status).toBe(201);
    const read = await c().read(created.body.contract.contractKey);
    expect(read.body.contract.contractType).toBe(7);
    const file = await t.sandbox.app.request(read.body.contract.value);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
  });
});

describe('TemplateList and TemplateEditor', () => {
  const c = () => ownerComponents(t, API_KEY);

  it('create, read, save text, rename, duplicate and delete, each as the list and editor read them', async () => {
    const made = await c().createTemplate('NDA', '<p>Mutual</p>', false);
    expect(made.status).toBe(201);
    const key = made.body.template.templateKey;
    expect((await c().readTemplate(key)).body.template).toMatchObject({ isPdf: false, value: '<p>Mutual</p>' });
    expect((await c().saveTemplateText(key, '<p>Mutual v2</p>')).body.code).toBe(201);
    expect((await c().renameTemplate(key, 'NDA v2')).body.code).toBe(201);
    const list = await c().listTemplates();
    expect(list.body.templates.find((x: { templateKey: string }) => x.templateKey === key)).toMatchObject({
      name: 'NDA v2',
      createTime: expect.stringMatching(/\.000Z$/),
      changeTime: expect.stringMatching(/\.000Z$/),
    });
    const dup = await c().duplicateTemplate(key);
    expect([dup.body.code, typeof dup.body.message]).toEqual([201, 'string']);
    const placeholders = await c().placeholders({ templateKey: key }, false);
    expect(placeholders.status).toBe(200);
    const gone = await c().deleteTemplate(key);
    expect([gone.body.code, typeof gone.body.message]).toEqual([201, 'string']);
    expect(
      (await c().listTemplates('')).body.templates.map((x: { templateKey: string }) => x.templateKey),
    ).not.toContain(key);
  });
});

describe("the owner's signing (contract_sign and friends)", () => {
  const c = () => ownerComponents(t, API_KEY);

  it('signs as the signer with the email typed, lists the signature, and flags the editor copy as stale', async () => {
    const key = await newContract(c(), 'Owner signs', 'owner@example.com');
    expect((await c().checkValue(key, 0)).body.changed).toBe(false);
    const signed = await c().sign(key, 'Olive Owner', 'owner@example.com', DRAWN_SIGNATURE, IP_INFO);
    expect(signed.status).toBe(201);
    expect(signed.body).toMatchObject({ fullName: 'Olive Owner', email: 'owner@example.com' });
    const signs = await c().signs(key);
    expect(signs.body).toEqual([
      {
        shareLink: expect.any(String),
        base64: DRAWN_SIGNATURE,
        fullName: 'Olive Owner',
        email: 'owner@example.com',
        createTime: expect.stringMatching(/\.000Z$/),
      },
    ]);
    const stale = await c().checkValue(key);
    expect(stale.body).toMatchObject({ changed: true, contractValue: expect.any(String) });
    expect((await c().checkValue(key, 1)).body.changed).toBe(false);
    const emailed = await c().emailSign(key);
    expect([emailed.status, emailed.body.result]).toEqual([201, true]);
    expect((await c().emailSignPdf(key, await makePdf(1))).body.result).toBe(true);
    const emails = await t.control(`/emails?contractKey=${key}`);
    expect(emails.body.emails.filter((e: { kind: string }) => /confirm/.test(e.kind))).toHaveLength(2);
    const events = await c().events(key);
    expect(events.body.map((e: { status: number }) => e.status)).toContain(5);
  });

  it('approves as the approver with the email typed, and emails the confirmation', async () => {
    const res = await c().create(
      { name: 'Owner approves', value: '<p>x</p>', templateKey: '', contractType: 'empty' },
      { recipients: [{ action: 'approve', customMessage: '', fullname: 'A', email: 'boss@example.com', position: 0 }] },
    );
    const key = res.body.contract.contractKey;
    const approved = await c().approve(key, 'Bea Boss', 'boss@example.com');
    expect(approved.status).toBe(201);
    expect((await c().emailApprove(key)).body.result).toBe(true);
  });

  it.each([
    [
      'sign with an email no signer has',
      (key: string) => c().sign(key, 'X', 'nobody@example.com', DRAWN_SIGNATURE, ''),
    ],
    ['email a signature nobody made', (key: string) => c().emailSign(key)],
  ])('answers 409 to %s, naming what is missing', async (_name, call) => {
    const key = await newContract(c(), 'Nothing yet');
    const res = await call(key);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/recipient|nothing to confirm/);
  });
});

describe('share links and the AI assistant', () => {
  const c = () => ownerComponents(t, API_KEY);

  it("ShareLinkLine's PUT and DELETE find the contract from the link's controlLink", async () => {
    const key = await newContract(c(), 'Linked');
    const link = (await c().addLink(key)).body.shareLink;
    const changed = await c().changeLink(link.controlLink, link.shareLink, link.id, '1');
    expect([changed.status, changed.body.shareLink.view]).toEqual([201, '1']);
    expect((await c().deleteLink(link.controlLink, link.id)).status).toBe(201);
  });

  it.each(['context', 'context_files', 'chat'])('%s answers 501 naming itself', async (name) => {
    const res = await t.request(`/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.api+json', 'x-sendforsign-key': DEMO.apiKey },
      body: JSON.stringify({ data: { action: 'list', clientKey: DEMO.clientKey, userKey: '' } }),
    });
    expect(res.status).toBe(501);
    expect(res.body.message).toContain(`/api/${name}`);
  });
});
