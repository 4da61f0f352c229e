/**
 * One audit trail (src/domain/audit-trail.ts): GET /api/contract_event and the signed PDF's audit page read the same
 * rows, so they name the same person and the same address for every step, whichever way a recipient acted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/domain/context.js';
import { actAsRecipient } from '../../src/domain/lifecycle.js';
import { auditRows } from '../../src/domain/audit-trail.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { download, readPdf } from '../support/documents-kit.js';
import { createContract } from '../support/contract-walk.js';

const API = { apiKey: DEMO.apiKey } as const;
let t: TestSandbox;
beforeAll(async () => {
  t = await testSandbox({ ...FROZEN, seed: 7 });
});
afterAll(() => t.close());

describe('the audit trail', () => {
  it('names the same person and address for each step in contract_event and on the PDF audit page', async () => {
    const created = await createContract(
      t,
      API,
      { name: 'One trail', value: '<p>Terms</p>' },
      [
        { fullname: 'Ann Page', email: 'ann@x.test', action: 'sign', position: 1 },
        { fullname: 'Bo Control', email: 'bo@x.test', action: 'sign', position: 2 },
      ],
      { clientKey: DEMO.clientKey },
    );
    const contractKey: string = created.body.contract.contractKey;
    const list = await t.post(
      '/api/recipient',
      { data: { action: 'list', clientKey: DEMO.clientKey, contractKey } },
      API,
    );
    const [ann, bo] = list.body.recipients as { recipientKey: string }[];
    // Ann signs from a browser at 203.0.113.9 (as the recipient page passes it); Bo through the control API.
    actAsRecipient(systemContext(t.sandbox.services, 'page'), ann!.recipientKey, 'sign', { ip: '203.0.113.9' });
    await t.control(`/recipients/${bo!.recipientKey}/sign`, {});

    const events = (
      await t.request(`/api/contract_event?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`, {
        headers: { 'x-service-key': DEMO.apiKey },
      })
    ).body as { status: number; name: string; ipInfo: string; userId: string | null }[];
    // ipInfo is a JSON string, as the real clients parse it (docs/compatibility.md).
    const byStep = events.map((e) => [e.status, e.name, JSON.parse(e.ipInfo).ip]);
    expect(byStep).toEqual([
      [1, expect.any(String), '127.0.0.1'],
      [2, expect.any(String), '127.0.0.1'],
      [3, 'Ann Page', '203.0.113.9'],
      [5, 'Ann Page', '203.0.113.9'],
      [3, 'Bo Control', '127.0.0.1'],
      [5, 'Bo Control', '127.0.0.1'],
      [6, expect.any(String), '127.0.0.1'],
    ]);
    // The owner's steps are the contract's user's, in both.
    expect(events[0]!.userId).toBe(DEMO.userKey);

    const pages = await readPdf(
      (await download(t, `/api/download_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`, API)).bytes,
    );
    const audit = pages.at(-1)!;
    const rowOf = (label: string) =>
      audit.items
        .filter((i) => i.text === label)
        .map((s) => audit.items.filter((i) => Math.abs(i.top - s.top) < 1).map((i) => i.text));
    const signed = rowOf('Signed');
    expect(signed.map((r) => r.slice(2))).toEqual([
      ['Ann Page', 'ann@x.test', '203.0.113.9'],
      ['Bo Control', 'bo@x.test', '127.0.0.1'],
    ]);
    // Every row of the page is a row of the trail, with the same person and address.
    const rows = auditRows(
      systemContext(t.sandbox.services, 'test'),
      t.sandbox.services.store.contracts.get(contractKey)!,
    );
    const withStatus = rows.filter((r) => r.status !== undefined);
    expect(withStatus.length, 'rows with a status').toBeGreaterThan(0);
    for (const row of withStatus) {
      const event = events.find((e) => e.status === row.status && e.name === row.name);
      expect(JSON.parse(event?.ipInfo ?? '{}').ip, row.event).toBe(row.ip);
    }
    // The header's `Status Fully signed` line comes first; the step's row is the last.
    expect(rowOf('Fully signed').at(-1)!.slice(2)).toEqual([rows.at(-1)!.name, rows.at(-1)!.email, '127.0.0.1']);
  });
});
