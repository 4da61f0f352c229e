/**
 * What a share link's holder reads in refusals (docs/compatibility.md, "Share links"): through a
 * link, the other recipients are aliases (`recipient-<id>`), and so are their keys in every refusal the holder can
 * provoke. A table of requests, sent through every kind of link (a recipient's own, and extra links of each role) in
 * every state of the contract (not sent, sent, acted, fully signed, archived): no answer, success or refusal, JSON or
 * page, names a recipient key the holder was not given, nor a `<key>_N` placeholder key built from one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { DRAWN_SIGNATURE, recipientView } from '../support/recipient-view.js';

let t: TestSandbox;
let auth: Auth;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
  auth = await t.demoAuth();
});
afterAll(() => t.close());

const PEOPLE = [
  { fullname: 'Ann Lee', email: 'ann@x.test', action: 'sign', position: 1 },
  { fullname: 'Bo Chan', email: 'bo@x.test', action: 'approve', position: 1 },
  { fullname: 'Cy Ode', email: 'cy@x.test', action: 'sign', position: 2 },
  { fullname: 'Di Roe', email: 'di@x.test', action: 'view', position: 1 },
];

interface Deal {
  contractKey: string;
  /** The recipients' keys (their own share links), in PEOPLE's order. */
  keys: string[];
  /** Extra links by the access they were made with ('1' sign, '2' approve, '4' view). */
  extra: Record<'1' | '2' | '4', string>;
  /** Every ordinary placeholder's key, one per recipient (each its filler). */
  ordinary: string[];
}

/** An HTML contract with PEOPLE, one ordinary placeholder for each, and three extra links; sent when `send`. */
async function deal(send: boolean): Promise<Deal> {
  const contractKey = (
    await t.post(
      '/api/contract',
      { data: { action: 'create', contract: { name: 'Deal', value: '<p><placeholder1></placeholder1></p>' } } },
      auth,
    )
  ).body.contract.contractKey as string;
  await t.post('/api/recipient', { data: { action: 'create', contractKey, recipients: PEOPLE } }, auth);
  const listed = (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body.recipients;
  const keys = PEOPLE.map((p) => listed.find((r: { email: string }) => r.email === p.email).recipientKey as string);
  const ordinary: string[] = [];
  for (const [i, key] of keys.entries()) {
    const made = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'create',
          contractKey,
          placeholder: { name: `Field ${i + 1}`, value: '', fillingType: 4, externalRecipientKey: key },
        },
      },
      auth,
    );
    expect(made.status).toBe(201);
    ordinary.push(made.body.placeholder.placeholderKey);
  }
  const extra = {} as Deal['extra'];
  for (const view of ['1', '2', '4'] as const) {
    const made = await t.post('/api/contract_share_link', { contractKey, view }, auth);
    expect(made.status).toBe(201);
    extra[view] = made.body.shareLink.shareLink;
  }
  if (send) expect((await t.post('/api/recipient', { data: { action: 'send', contractKey } }, auth)).status).toBe(200);
  return { contractKey, keys, extra, ordinary };
}

/** The links of a deal, each with the recipient key its holder was given (its own link), if any. */
function links(d: Deal): { name: string; link: string; own?: string }[] {
  return [
    ...d.keys.map((key, i) => ({ name: `${PEOPLE[i]!.fullname}'s own link`, link: key, own: key })),
    { name: 'an extra signing link', link: d.extra['1'] },
    { name: 'an extra approving link', link: d.extra['2'] },
    { name: 'an extra view-only link', link: d.extra['4'] },
  ];
}

type Request = (link: string, d: Deal) => Promise<{ status: number; text: string }>;

const asText = async (answer: Promise<{ status: number; body: unknown }>) => {
  const { status, body } = await answer;
  return { status, text: typeof body === 'string' ? body : JSON.stringify(body) };
};

const page = async (path: string, init?: RequestInit) => {
  const res = await t.sandbox.app.request(path, init);
  return { status: res.status, text: await res.text() };
};

/** Every request a link's holder can send, including the ones meant to be refused. */
const REQUESTS: Record<string, Request> = {
  'GET recipient_contract': (link) => asText(recipientView(t, link).open()),
  'GET recipient_contract_status': (link) => asText(recipientView(t, link).status()),
  'GET recipient_contract_event': (link) => asText(recipientView(t, link).events()),
  'GET recipient_sign': (link) => asText(recipientView(t, link).signs()),
  'POST contract_event (seen)': (link) => asText(recipientView(t, link).seen({ fullname: 'X', email: 'x@x.test' })),
  'POST recipient_placeholder with every placeholder as received, values changed': async (link) => {
    const view = recipientView(t, link);
    const opened = (await view.open()).body;
    const items = (opened.placeholders ?? []).map((p: { value: string }) => ({ ...p, value: `${p.value}!` }));
    return asText(view.answer(link, items));
  },
  "POST recipient_placeholder naming the others' real placeholder keys": (link, d) =>
    asText(
      recipientView(t, link).answer(link, [
        ...d.ordinary.map((placeholderKey) => ({ placeholderKey, value: 'mine now' })),
        ...d.keys.flatMap((key) => [1, 2, 3, 4].map((n) => ({ placeholderKey: `${key}_${n}`, value: 'mine now' }))),
      ]),
    ),
  'POST recipient_contract (its copy of the HTML)': (link) =>
    asText(recipientView(t, link).saveHtml(link, '<p>my copy</p>')),
  'POST check_contract_changed (a bad time)': (link) =>
    asText(recipientView(t, link).checkChanged(link, 'yesterday', '1')),
  'POST check_contract_changed': (link) =>
    asText(recipientView(t, link).checkChanged(link, '2026-03-01 08:00:00', '1')),
  'POST recipient_sign (a bad image)': (link) =>
    asText(recipientView(t, link).sign(link, 'X', 'x@x.test', 'data:image/gif;base64,R0lGOD')),
  'POST recipient_sign': (link) => asText(recipientView(t, link).sign(link, 'X', 'x@x.test', DRAWN_SIGNATURE)),
  'POST recipient_approve': (link) => asText(recipientView(t, link).approve(link, 'X', 'x@x.test')),
  'POST recipient_sign_email': (link) => asText(recipientView(t, link).signEmail(link)),
  'POST recipient_approve_email': (link) => asText(recipientView(t, link).approveEmail(link)),
  'GET the recipient page': (link) => page(`/sharing/${link}`),
  ...Object.fromEntries(
    ['sign', 'approve', 'lock', 'shred'].map((verb) => [
      `POST the recipient page's form (${verb})`,
      (link: string) =>
        page(`/sharing/${link}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ verb, signature: 'X' }).toString(),
        }),
    ]),
  ),
};

/** Runs every request through every link of `d`, and checks no answer names a key its holder was not given. */
async function sweep(d: Deal, state: string): Promise<number> {
  let refusals = 0;
  for (const { name, link, own } of links(d)) {
    const secrets = d.keys.filter((key) => key !== own);
    for (const [request, send] of Object.entries(REQUESTS)) {
      const { status, text } = await send(link, d);
      if (status >= 400) refusals++;
      const named = secrets.filter((secret) => text.includes(secret));
      expect(named, `${state}: ${request} through ${name} (${status}): ${text.slice(0, 400)}`).toEqual([]);
    }
  }
  return refusals;
}

describe('refusals through a share link name the others as aliases', () => {
  it('before the contract is sent', async () => {
    expect(await sweep(await deal(false), 'not sent')).toBeGreaterThan(20);
  });

  it('once sent, twice over (the second sweep finds the acts done), then fully signed', async () => {
    const d = await deal(true);
    expect(await sweep(d, 'sent')).toBeGreaterThan(20);
    expect(await sweep(d, 'acted')).toBeGreaterThan(20);
    // Whoever has not acted yet acts through its own link, and the contract is fully signed.
    for (const [i, key] of d.keys.entries()) {
      const verb = PEOPLE[i]!.action;
      if (verb === 'sign') await recipientView(t, key).sign(key, 'X', 'x@x.test');
      if (verb === 'approve') await recipientView(t, key).approve(key, 'X', 'x@x.test');
    }
    expect(t.sandbox.services.store.contracts.get(d.contractKey)!.status).toBe('Fully signed');
    expect(await sweep(d, 'fully signed')).toBeGreaterThan(20);
  });

  it('once archived', async () => {
    const d = await deal(true);
    expect(
      (await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey: d.contractKey } } }, auth))
        .status,
    ).toBeLessThan(300);
    expect(await sweep(d, 'archived')).toBeGreaterThan(20);
  });
});
