/**
 * The vendor's RecipientView, replayed call by call against the sandbox (test/support/recipient-view.ts): opening, the
 * view, the questions step, sign and approve, the confirmation emails and the download, for an HTML and a PDF
 * contract, asserting on the fields the component reads.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BusEvent } from '../../src/core/events.js';
import { type Auth, DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { makePdf, readPdf, upload } from '../support/documents-kit.js';
import { DRAWN_SIGNATURE, IP_INFO, recipientView } from '../support/recipient-view.js';

let t: TestSandbox;
let auth: Auth;
let events: BusEvent[];
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  auth = await t.demoAuth();
  events = [];
  t.sandbox.services.bus.onAny((e) => events.push(e));
});
afterEach(() => t.close());

const contractEvents = () => events.filter((e) => e.type.startsWith('contract.')).map((e) => e.type);
const emails = async (kind: string) => (await t.control(`/emails?kind=${kind}`)).body.emails;

interface Prepared {
  contractKey: string;
  ann: string;
  bo: string;
  /** Ann's placeholder to fill, the owner's, and the id Ann's special placeholders share. */
  company: { placeholderKey: string; id: number };
  price: { placeholderKey: string; id: number };
  annTag: number;
}

/** A contract for Ann (sign, position 1) then Bo (approve, position 2); Ann is named to fill "Company". */
async function prepare(contract: Record<string, unknown>): Promise<Prepared> {
  const contractKey = (await t.post('/api/contract', { data: { action: 'create', contract } }, auth)).body.contract
    .contractKey;
  await t.post(
    '/api/recipient',
    {
      data: {
        action: 'create',
        contractKey,
        recipients: [
          { fullname: 'Ann Lee', email: 'ann@x.test', action: 'sign', position: 1 },
          { fullname: 'Bo Chan', email: 'bo@x.test', action: 'approve', position: 2 },
        ],
      },
    },
    auth,
  );
  const [ann, bo] = (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body.recipients;
  const create = async (name: string, extra: object) =>
    (
      await t.post(
        '/api/placeholder',
        { data: { action: 'create', contractKey, placeholder: { name, ...extra } } },
        auth,
      )
    ).body.placeholder;
  const company = await create('Company', { value: '', fillingType: 4, externalRecipientKey: ann.recipientKey });
  const price = await create('Price', { value: '100 EUR' });
  const annTag = Number(t.sandbox.services.store.placeholders.get(`${ann.recipientKey}_4`)!.id);
  return {
    contractKey,
    ann: ann.recipientKey,
    bo: bo.recipientKey,
    company: { placeholderKey: company.placeholderKey, id: Number(company.id) },
    price: { placeholderKey: price.placeholderKey, id: Number(price.id) },
    annTag,
  };
}

async function send(contractKey: string) {
  expect((await t.post('/api/recipient', { data: { action: 'send', contractKey } }, auth)).status).toBe(200);
}

async function htmlContract(): Promise<Prepared> {
  const p = await prepare({ name: 'Supply deal', value: '<p>draft</p>' });
  const value = `<p>Company: <placeholder${p.company.id}>Company</placeholder${p.company.id}></p><p>Price: <placeholder${p.price.id}>Price</placeholder${p.price.id}></p><p><sign${p.annTag}>Sign</sign${p.annTag}> <fullname${p.annTag}>Name</fullname${p.annTag}></p>`;
  await t.post('/api/contract', { data: { action: 'update', contract: { contractKey: p.contractKey, value } } }, auth);
  await send(p.contractKey);
  return p;
}

describe('RecipientView on an HTML contract, from opening to the signed PDF', () => {
  it('opens, is seen, answers the questions, signs, confirms, and the approver approves; every field it reads is there', async () => {
    const p = await htmlContract();
    const view = recipientView(t, p.ann);
    events = [];

    // 1. Mount: GET recipient_contract.
    const opened = await view.open();
    expect(opened.status).toBe(200);
    const contract = opened.body;
    expect(contract).toMatchObject({
      shareLink: p.ann,
      controlLink: p.contractKey,
      contractName: 'Supply deal',
      contractType: 8,
      view: '1',
      isDone: false,
      audit: false,
      fullname: 'Ann Lee',
      email: 'ann@x.test',
      visiblePageBranding: true,
      isTest: true,
      statusName: 'Sent',
      statusId: 2,
      createTime: '2026-03-01 09:00:00',
      changeTime: '2026-03-01 09:00:00',
    });
    expect(contract.contractValue).toContain(`<placeholder${p.company.id}>`);
    const company = contract.placeholders.find((x: { name: string }) => x.name === 'Company');
    expect(company).toMatchObject({ id: p.company.id, externalRecipientKey: p.ann, view: 1, isSpecial: false });
    const annSign = contract.placeholders.find((x: { placeholderKey: string }) => x.placeholderKey === `${p.ann}_4`);
    expect(annSign).toMatchObject({
      id: p.annTag,
      view: 2,
      isSpecial: true,
      specialType: 4,
      externalRecipientKey: p.ann,
    });
    for (const x of contract.placeholders) expect(x.view).not.toBeNull();

    // 2. The view, then the events and signs it reads on mount.
    expect((await view.seen(contract)).body).toMatchObject({ result: true });
    expect((await view.seen(contract)).body).toMatchObject({ result: false });
    const trail = (await view.events()).body;
    expect(trail.at(-1)).toMatchObject({ status: 3, name: 'Ann Lee', email: 'ann@x.test', shareLink: p.ann });
    expect(JSON.parse(trail.at(-1).ipInfo)).toEqual(
      expect.objectContaining({ ip: '127.0.0.1', city: expect.any(String), timezone: expect.any(String) }),
    );
    expect((await view.signs()).body).toEqual([]);

    // 3. The questions step: its steps are Ann's own ordinary placeholders.
    const steps = contract.placeholders.filter(
      (x: any) => x.externalRecipientKey === contract.shareLink && x.view && x.view.toString() !== '2' && !x.isSpecial,
    );
    expect(steps.map((x: { name: string }) => x.name)).toEqual(['Company']);
    const edited = contract.placeholders.map((x: any) =>
      x.name === 'Company' ? { ...x, value: 'Acme Ltd' } : x.name === 'Price' ? { ...x, value: '1 EUR' } : x,
    );
    expect((await view.answer(contract.shareLink, edited)).body).toMatchObject({ filled: 1 });
    const saved = await view.saveHtml(contract.shareLink, '<p>Company: Acme Ltd</p>');
    expect(saved.body).toMatchObject({ contractValue: '<p>Company: Acme Ltd</p>', changeTime: contract.changeTime });
    const values = Object.fromEntries(
      (await view.open()).body.placeholders.map((x: { name: string; value: string }) => [x.name, x.value]),
    );
    expect(values).toMatchObject({ Company: 'Acme Ltd', Price: '100 EUR' });

    // 4–5. The footer button and the sign modal check for changes, then sign.
    expect((await view.checkChanged(p.ann, saved.body.changeTime, contract.view)).body).toMatchObject({
      changed: false,
      view: '1',
    });
    const signed = await view.sign(contract.shareLink, 'Ann B. Lee', 'ann.lee@x.test');
    expect(signed.status).toBe(201);
    expect(signed.body).toMatchObject({
      fullName: 'Ann B. Lee',
      email: 'ann.lee@x.test',
      createTime: '2026-03-01T09:00:00.000Z',
      recipientId: p.annTag,
    });
    expect((await view.status()).body).toMatchObject({ status: 'Fully signed' });
    // Its copy with the signature block, saved right after the last signature: answered, though the trail is final.
    expect((await view.saveHtml(contract.shareLink, '<p>signed copy</p>')).status).toBe(201);
    expect((await view.signEmail(contract.shareLink)).body).toMatchObject({ result: true });
    expect(await emails('sign_confirmation')).toEqual([
      expect.objectContaining({ to: 'ann@x.test', recipientKey: p.ann, contractKey: p.contractKey }),
    ]);

    // What it reads after signing: the signature, matched to the signed event by name and email.
    const signs = (await view.signs()).body;
    expect(signs).toEqual([
      {
        shareLink: p.ann,
        base64: DRAWN_SIGNATURE,
        createTime: '2026-03-01T09:00:00.000Z',
        fullName: 'Ann B. Lee',
        email: 'ann.lee@x.test',
      },
    ]);
    const signedRow = (await view.events()).body.find((e: { status: number }) => e.status.toString() === '5');
    expect(signedRow).toMatchObject({ name: 'Ann B. Lee', email: 'ann.lee@x.test' });
    expect(signedRow.ipInfo).toBe(IP_INFO);
    const reopened = (await view.open()).body;
    expect(reopened).toMatchObject({ isDone: true, view: '1' });
    expect(reopened.contractValue).toContain('Acme Ltd');

    // The same lifecycle as every other door: events, the owner's notice, Bo's turn.
    expect(contractEvents()).toEqual(['contract.seen', 'contract.signed', 'contract.fully_signed']);
    expect(await emails('contract_signed')).toHaveLength(1);
    expect(await emails('approval_request')).toEqual([expect.objectContaining({ to: 'bo@x.test' })]);
    const inspected = (await t.control(`/contracts/${p.contractKey}`)).body;
    expect(inspected.recipients[0]).toMatchObject({ state: 'signed', signature: DRAWN_SIGNATURE });
    expect(
      inspected.placeholders.find((x: { placeholderKey: string }) => x.placeholderKey === `${p.ann}_2`).value,
    ).toBe('Ann B. Lee');

    const dashboard = await (await t.sandbox.app.request(`/__sandbox/ui?contract=${p.contractKey}`)).text();
    expect(dashboard).toContain('as Ann B. Lee &lt;ann.lee@x.test&gt;');
    expect(dashboard).toContain('203.0.113.7');

    // 6. Bo approves: check (with contract.changeTime), approve, the approval email.
    const bo = recipientView(t, p.bo);
    const boContract = (await bo.open()).body;
    expect(boContract).toMatchObject({ view: '2', isDone: false, fullname: 'Bo Chan' });
    await bo.seen(boContract);
    expect((await bo.checkChanged(boContract.shareLink, boContract.changeTime, boContract.view)).body).toMatchObject({
      changed: false,
      view: '2',
    });
    expect((await bo.approve(boContract.shareLink, 'Bo Chan', 'bo@x.test')).status).toBe(201);
    expect((await bo.approveEmail(boContract.shareLink)).body).toMatchObject({ result: true });
    expect(await emails('approve_confirmation')).toEqual([expect.objectContaining({ to: 'bo@x.test' })]);
    expect((await bo.open()).body).toMatchObject({ isDone: true, statusName: 'Fully signed' });

    // 7. Download: the signed PDF, with the name Ann typed in its audit trail.
    const pdf = await view.download();
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const text = (await readPdf(pdf.bytes)).map((page) => page.text).join('\n');
    expect(text).toContain('Acme Ltd');
    expect(text).toContain('Ann B. Lee');
  });

  it('reports a change of content after the changeTime it read, with the content now, and a change of role', async () => {
    const p = await prepare({ name: 'Draft', value: '<p>one</p>' });
    const view = recipientView(t, p.ann);
    const before = (await view.open()).body;
    await t.control('/clock/advance', { by: '5s' });
    await t.post(
      '/api/contract',
      { data: { action: 'update', contract: { contractKey: p.contractKey, value: '<p>two</p>' } } },
      auth,
    );
    const changed = (await view.checkChanged(p.ann, before.changeTime, before.view)).body;
    expect(changed).toMatchObject({ changed: true, view: '1', contractValue: '<p>two</p>' });
    const after = (await view.open()).body;
    expect((await view.checkChanged(p.ann, after.changeTime, after.view)).body).toMatchObject({ changed: false });
    await t.post(
      '/api/recipient',
      { data: { action: 'update', contractKey: p.contractKey, recipient: { recipientKey: p.ann, action: 'approve' } } },
      auth,
    );
    expect((await view.checkChanged(p.ann, after.changeTime, '1')).body).toEqual({
      changed: true,
      view: '2',
      code: '200',
      message: 'Contract checked',
    });
  });
});

describe('RecipientView opened by a link made with contract_share_link', () => {
  it("opens as the contract's recipient in the link's role, answering the link itself as shareLink", async () => {
    const p = await htmlContract();
    const made = await t.post('/api/contract_share_link', { contractKey: p.contractKey }, auth);
    const { shareLink, id } = made.body.shareLink;
    await t.request('/api/contract_share_link', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${(auth as { bearer: string }).bearer}` },
      body: JSON.stringify({ contractKey: p.contractKey, shareLink, id, view: '1' }),
    });
    const view = recipientView(t, shareLink);
    const contract = (await view.open()).body;
    // The component finds its own fields by comparing shareLink with externalRecipientKey: both are the link, and
    // the recipient's own key (a link that cannot be taken back) is not handed out.
    expect(contract).toMatchObject({ view: '1', shareLink, fullname: 'Ann Lee' });
    expect(JSON.stringify(contract)).not.toContain(p.ann);
    const own = contract.placeholders.filter((x: any) => x.externalRecipientKey === contract.shareLink);
    expect(own.map((x: { name: string }) => x.name)).toContain('Company');
    expect((await view.seen(contract)).body).toMatchObject({ result: true });
    expect((await view.checkChanged(shareLink, contract.changeTime, contract.view)).body.changed).toBe(false);
    expect((await view.sign(contract.shareLink, 'Ann Lee', 'ann@x.test')).status).toBe(201);
    expect((await view.signs()).body).toEqual([expect.objectContaining({ shareLink })]);
    expect((await recipientView(t, p.ann).open()).body).toMatchObject({ isDone: true });
  });
});

describe('RecipientView on a PDF contract', () => {
  it('opens with contractType 7 and an absolute URL to the file, signs, and lists the signature for its box', async () => {
    const p = await prepare({ name: 'Office lease', contractType: 'pdf' });
    expect(
      (
        await upload(t, `contractKey=${p.contractKey}&clientKey=${DEMO.clientKey}`, await makePdf(2), {
          bearer: (auth as { bearer: string }).bearer,
        })
      ).status,
    ).toBe(201);
    const box = {
      id: '1',
      action: 'update',
      clientKey: DEMO.clientKey,
      pageId: '1',
      positionX: '100',
      positionY: '600',
      width: '300',
      height: '50',
    };
    const placed = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'update',
          contractKey: p.contractKey,
          placeholders: [{ placeholderKey: `${p.ann}_4`, isSpecial: true, specialType: 4, insertion: [box] }],
        },
      },
      auth,
    );
    expect(placed.status).toBe(201);
    await send(p.contractKey);
    const view = recipientView(t, p.ann);
    const contract = (await view.open()).body;
    expect(contract).toMatchObject({ contractType: 7, view: '1', isDone: false });
    expect(contract.contractValue).toMatch(/^http:\/\/localhost\/api\//);
    const file = await t.sandbox.app.request(contract.contractValue);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const mine = contract.placeholders.find((x: { placeholderKey: string }) => x.placeholderKey === `${p.ann}_4`);
    expect(mine.insertion).toEqual([expect.objectContaining({ pageId: '1', positionX: '100', width: '300' })]);

    await view.seen(contract);
    expect((await view.checkChanged(contract.shareLink, contract.changeTime, contract.view)).body.changed).toBe(false);
    expect((await view.sign(contract.shareLink, 'Ann Lee', 'ann@x.test')).status).toBe(201);
    const signs = (await view.signs()).body;
    expect(signs.find((s: { shareLink: string }) => s.shareLink === mine.externalRecipientKey)).toMatchObject({
      base64: DRAWN_SIGNATURE,
      fullName: 'Ann Lee',
    });
    expect((await view.signEmail(contract.shareLink)).status).toBe(201);
    const pdf = await view.download();
    expect(pdf).toMatchObject({ status: 200, type: 'application/pdf' });
    expect((await readPdf(pdf.bytes)).length).toBeGreaterThanOrEqual(2);
  });
});

describe('the recipient endpoints refuse', () => {
  const unknown = 'noSuchLink';
  const calls: [string, (v: ReturnType<typeof recipientView>) => Promise<{ status: number; body: any }>][] = [
    ['GET recipient_contract', (v) => v.open()],
    ['GET recipient_contract_event', (v) => v.events()],
    ['GET recipient_sign', (v) => v.signs()],
    ['GET recipient_contract_status', (v) => v.status()],
    ['POST contract_event', (v) => v.seen({ fullname: 'A', email: 'a@x.test' })],
    ['POST recipient_placeholder', (v) => v.answer(unknown, [])],
    ['POST recipient_contract', (v) => v.saveHtml(unknown, '<p>x</p>')],
    ['POST check_contract_changed', (v) => v.checkChanged(unknown, '2026-03-01 09:00:00', '1')],
    ['POST recipient_sign', (v) => v.sign(unknown, 'A', 'a@x.test')],
    ['POST recipient_approve', (v) => v.approve(unknown, 'A', 'a@x.test')],
    ['POST recipient_sign_email', (v) => v.signEmail(unknown)],
    ['POST recipient_approve_email', (v) => v.approveEmail(unknown)],
    [
      'GET recipient_download_pdf',
      async (v) => {
        const res = await v.download();
        return { status: res.status, body: JSON.parse(Buffer.from(res.bytes).toString()) };
      },
    ],
  ];
  it.each(calls)('%s with an unknown share link: 404 with a JSON message', async (_name, call) => {
    const res = await call(recipientView(t, unknown));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'Share link not found' });
  });

  it('acting twice, out of turn or out of role: 409; a signature that is not a PNG data URL, or not a PNG inside: 400', async () => {
    const p = await htmlContract();
    const ann = recipientView(t, p.ann);
    const bo = recipientView(t, p.bo);
    expect((await bo.approve(p.bo, 'Bo', 'bo@x.test')).status).toBe(409);
    expect((await bo.answer(p.bo, [])).status).toBe(409);
    expect((await ann.approve(p.ann, 'Ann', 'ann@x.test')).status).toBe(409);
    expect((await ann.signEmail(p.ann)).status).toBe(409);
    for (const base64 of ['data:image/svg+xml;base64,PHN2Zy8+', 'data:image/png;base64,iVBORw0KGgo=']) {
      const refused = await ann.sign(p.ann, 'Ann', 'ann@x.test', base64);
      expect(refused.status, base64).toBe(400);
      expect(refused.body.errors[0].path).toBe('base64');
    }
    expect((await ann.sign(p.ann, 'Ann', 'ann@x.test')).status).toBe(201);
    const twice = await ann.sign(p.ann, 'Ann', 'ann@x.test');
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/already signed/);
    expect((await ann.answer(p.ann, [])).status).toBe(409);
  });

  it('answers the share link check without credentials, and takes no other status than 3 on contract_event', async () => {
    const p = await htmlContract();
    const res = await t.request('/api/contract_event', {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ shareLink: p.ann, status: '5' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('status');
  });
});
