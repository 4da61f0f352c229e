/**
 * What a share link lets its holder do, and see, each as the exact sequence reported: one rule
 * (domain/share-links.ts) read by `recipient_contract`'s answer, `check_contract_changed` and the acts; a fully
 * signed contract whose document and trail no longer change; one link that does not hand out the others' keys.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { type Auth, sandboxEachTest } from '../support/helpers.js';
import { DRAWN_SIGNATURE, recipientView } from '../support/recipient-view.js';

const t = sandboxEachTest();
let auth: Auth;
beforeEach(async () => {
  auth = await t.demoAuth();
});

type Person = { fullname: string; email: string; action: string; position: number };

/** A sent HTML contract with these recipients; answers its key and the recipients' keys, in order. */
async function sentContract(people: Person[]): Promise<{ contractKey: string; keys: string[] }> {
  const contractKey = (
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'Deal', value: '<p>x</p>' } } }, auth)
  ).body.contract.contractKey;
  await t.post('/api/recipient', { data: { action: 'create', contractKey, recipients: people } }, auth);
  const listed = (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body.recipients;
  expect((await t.post('/api/recipient', { data: { action: 'send', contractKey } }, auth)).status).toBe(200);
  return {
    contractKey,
    keys: people.map((p) => listed.find((r: { email: string }) => r.email === p.email).recipientKey),
  };
}

const SIGNER = { fullname: 'Ann Lee', email: 'ann@x.test', action: 'sign', position: 1 };
const VIEWER = { fullname: 'Vic Wu', email: 'vic@x.test', action: 'view', position: 1 };

describe('a view-only share link', () => {
  it('made with view "4", refused at first, still cannot sign after its recipient is made a signer; answer and change check agree', async () => {
    const { contractKey, keys } = await sentContract([VIEWER]);
    const made = await t.post('/api/contract_share_link', { contractKey, view: '4' }, auth);
    expect(made.status).toBe(201);
    const link = made.body.shareLink.shareLink as string;
    const view = recipientView(t, link);
    const first = (await view.open()).body;
    expect(first.view).toBe('4');
    const refused = await view.sign(link, 'Vic Wu', 'vic@x.test');
    expect(refused.status).toBe(409);

    // The owner makes the recipient a signer.
    const changed = await t.post(
      '/api/recipient',
      { data: { action: 'update', contractKey, recipient: { recipientKey: keys[0], action: 'sign' } } },
      auth,
    );
    expect(changed.status).toBeLessThan(300);

    const opened = (await view.open()).body;
    expect(opened.view).toBe('4');
    expect((await view.checkChanged(link, opened.changeTime, opened.view)).body).toMatchObject({
      changed: false,
      view: '4',
    });
    const sign = await view.sign(link, 'Vic Wu', 'vic@x.test');
    expect(sign.status).toBe(409);
    expect(sign.body.message).toMatch(/This share link only views \(view "4"\).*cannot sign/);
    expect((await view.approve(link, 'Vic Wu', 'vic@x.test')).status).toBe(409);
    // Filling answers is the first half of acting: refused too.
    expect((await view.answer(link, [])).status).toBe(409);
    // The recipient page opened by the link offers no form and refuses the post alike.
    const page = await t.sandbox.app.request(`/sharing/${link}`);
    expect(await page.text()).not.toContain('name="verb"');
    const posted = await t.sandbox.app.request(`/sharing/${link}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'verb=sign&mode=type&signature=Vic',
    });
    expect(posted.status).toBe(409);
    expect(t.sandbox.services.store.recipients.get(keys[0]!)!.state).not.toBe('signed');

    // The recipient's own link acts in its role.
    const own = recipientView(t, keys[0]!);
    expect((await own.open()).body.view).toBe('1');
    expect((await own.sign(keys[0]!, 'Vic Wu', 'vic@x.test', DRAWN_SIGNATURE)).status).toBe(201);
  });

  it('a signing link whose recipient becomes a viewer only views, and the change check says so', async () => {
    const { contractKey, keys } = await sentContract([SIGNER]);
    const link = (await t.post('/api/contract_share_link', { contractKey, view: '1' }, auth)).body.shareLink
      .shareLink as string;
    const view = recipientView(t, link);
    const opened = (await view.open()).body;
    expect(opened.view).toBe('1');
    await t.post(
      '/api/recipient',
      { data: { action: 'update', contractKey, recipient: { recipientKey: keys[0], action: 'view' } } },
      auth,
    );
    expect((await view.checkChanged(link, opened.changeTime, '1')).body).toMatchObject({ changed: true, view: '4' });
    expect((await view.open()).body.view).toBe('4');
  });
});

describe('a fully signed contract', () => {
  it("refuses a viewer's recipient_contract with 409, and its trail and document stay as they were", async () => {
    const { contractKey, keys } = await sentContract([SIGNER, { ...VIEWER, position: 2 }]);
    const [ann, vic] = keys as [string, string];
    expect((await recipientView(t, ann).sign(ann, 'Ann Lee', 'ann@x.test')).status).toBe(201);
    expect(t.sandbox.services.store.contracts.get(contractKey)!.status).toBe('Fully signed');
    const history = () => JSON.stringify(t.sandbox.services.store.contracts.get(contractKey)!.history);
    const trail = async () => (await t.request(`/api/recipient_contract_event?shareLink=${ann}`)).body;
    const before = { history: history(), trail: await trail() };

    const viewer = recipientView(t, vic);
    for (let i = 0; i < 5; i++) {
      const saved = await viewer.saveHtml(vic, `<p>changed ${i}</p>`);
      expect(saved.status).toBe(409);
      expect(saved.body.message).toMatch(/is fully signed; its document and audit trail no longer change/);
    }
    expect((await viewer.answer(vic, [])).status).toBe(409);
    expect(history()).toBe(before.history);
    expect(await trail()).toEqual(before.trail);
  });

  it('keeps one row per recipient of the notes a link may repeat (its copy of the HTML, its answers)', async () => {
    const { contractKey, keys } = await sentContract([SIGNER]);
    const ann = keys[0]!;
    const placeholder = (
      await t.post(
        '/api/placeholder',
        {
          data: {
            action: 'create',
            contractKey,
            placeholder: { name: 'Company', value: '', fillingType: 4, externalRecipientKey: ann },
          },
        },
        auth,
      )
    ).body.placeholder;
    const view = recipientView(t, ann);
    for (let i = 0; i < 30; i++) {
      expect((await view.saveHtml(ann, `<p>copy ${i}</p>`)).status).toBe(201);
      const answered = await view.answer(ann, [{ placeholderKey: placeholder.placeholderKey, value: `Acme ${i}` }]);
      expect(answered.body).toMatchObject({ filled: 1 });
    }
    const notes = t.sandbox.services.store.contracts
      .get(contractKey)!
      .history.filter((h) => h.event === 'recipient_html' || h.event === 'recipient_filled');
    expect(notes.map((h) => h.event).sort()).toEqual(['recipient_filled', 'recipient_html']);
    expect(notes.find((h) => h.event === 'recipient_filled')!.detail).toEqual({
      placeholders: [placeholder.placeholderKey],
    });
  });
});

describe("one link and the others' keys", () => {
  it("answers aliases for B's and C's keys, which open nothing: A's holder can neither approve as B nor sign as C", async () => {
    const { keys } = await sentContract([
      SIGNER,
      { fullname: 'Bo Chan', email: 'bo@x.test', action: 'approve', position: 1 },
      { fullname: 'Cy Ode', email: 'cy@x.test', action: 'sign', position: 1 },
    ]);
    const [a, b, c] = keys as [string, string, string];
    const view = recipientView(t, a);
    const opened = (await view.open()).body;
    expect(opened.shareLink).toBe(a);
    const seen = JSON.stringify([opened, (await view.events()).body, (await view.signs()).body]);
    for (const other of [b, c]) expect(seen).not.toContain(other);

    const owners = new Set(opened.placeholders.map((p: { externalRecipientKey: string }) => p.externalRecipientKey));
    expect(owners.has(a)).toBe(true);
    const aliases = [...owners].filter((k) => k !== a) as string[];
    expect(aliases).toHaveLength(2);
    for (const alias of aliases) expect(alias).toMatch(/^recipient-\d+$/);
    // A special placeholder's key names its recipient as seen: `<alias>_N`.
    for (const p of opened.placeholders.filter((x: { isSpecial: boolean }) => x.isSpecial))
      expect(p.placeholderKey.startsWith(`${p.externalRecipientKey}_`)).toBe(true);

    for (const alias of aliases) {
      expect((await view.approve(alias, 'Bo Chan', 'bo@x.test')).status).toBe(404);
      expect((await view.sign(alias, 'Cy Ode', 'cy@x.test')).status).toBe(404);
      expect((await t.request(`/api/recipient_contract?shareLink=${alias}`)).status).toBe(404);
    }
    const store = t.sandbox.services.store.recipients;
    expect([store.get(b)!.state, store.get(c)!.state]).toEqual(['notified', 'notified']);

    // The signatures list names each signer as the reader sees it, consistent with the placeholders.
    expect((await recipientView(t, c).sign(c, 'Cy Ode', 'cy@x.test')).status).toBe(201);
    const signs = (await view.signs()).body as { shareLink: string }[];
    const cAlias = opened.placeholders.find(
      (p: { isSpecial: boolean; specialType: number; externalRecipientKey: string; name: string }) =>
        p.isSpecial && p.externalRecipientKey !== a && signs.some((s) => s.shareLink === p.externalRecipientKey),
    );
    expect(cAlias).toBeDefined();
    expect(JSON.stringify(signs)).not.toContain(c);
  });
});
