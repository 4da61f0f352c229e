/**
 * What the journal keeps of each request for the readiness report (journal.ts `records`, docs/readiness.md): the
 * bearer token, the contract and the client its body names, and an error answer's message, taken as the request is
 * recorded, and the same for an entry read back from a data file (its token excepted: only its redacted form is kept).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/journal/record.js';
import { DEMO, type TestSandbox, testSandbox } from '../support/helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'esign-journal-records-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const facts = (records: readonly JournalRecord[]) =>
  records.map(({ path, action, status, token, contractKey, clientKey, message }) => ({
    path,
    action,
    status,
    token,
    contractKey,
    clientKey,
    message,
  }));

/** A contract read (its contract in `data.contract`), a recipient list (in `data.contractKey`) and a contract list. */
async function traffic(t: TestSandbox): Promise<string> {
  const token = await t.platformToken();
  const auth = { bearer: token };
  const { contractKey } = (
    await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'NDA', value: '<p>x</p>' } } },
      auth,
    )
  ).body.contract;
  await t.post(
    '/api/contract',
    { data: { action: 'read', clientKey: DEMO.clientKey, contract: { contractKey } } },
    auth,
  );
  await t.post('/api/recipient', { data: { action: 'list', clientKey: DEMO.clientKey, contractKey } }, auth);
  await t.post('/api/contract', { data: { action: 'list', clientKey: 'nobody' } }, auth);
  return token;
}

describe('the journal’s records for the readiness report', () => {
  it('keep each request’s bearer token, the contract and client its body names, and an error’s message', async () => {
    const t = await testSandbox({ data: join(dir, 'data.json') });
    try {
      const token = await traffic(t);
      const records = facts(await t.sandbox.journal.records(undefined, 'api'));
      const contractKey = records[2]!.contractKey;
      expect(contractKey).toEqual(expect.any(String));
      const refused = (await t.control('/requests?path=/api/contract&action=list')).body.requests[0];
      expect(records).toEqual([
        {
          path: '/api/token',
          action: 'create',
          status: 201,
          token: undefined,
          contractKey: undefined,
          clientKey: DEMO.clientKey,
          message: undefined,
        },
        {
          path: '/api/contract',
          action: 'create',
          status: 201,
          token,
          contractKey: undefined,
          clientKey: DEMO.clientKey,
          message: undefined,
        },
        {
          path: '/api/contract',
          action: 'read',
          status: 200,
          token,
          contractKey,
          clientKey: DEMO.clientKey,
          message: undefined,
        },
        {
          path: '/api/recipient',
          action: 'list',
          status: 200,
          token,
          contractKey,
          clientKey: DEMO.clientKey,
          message: undefined,
        },
        {
          path: '/api/contract',
          action: 'list',
          status: refused.status,
          token,
          contractKey: undefined,
          clientKey: 'nobody',
          message: refused.response.body.message,
        },
      ]);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.response.body.message).toEqual(expect.any(String));
    } finally {
      await t.close();
    }
  });

  it('read the same from the entries a data file kept, the token excepted', async () => {
    const file = join(dir, 'data.json');
    const first = await testSandbox({ data: file });
    let before: ReturnType<typeof facts>;
    try {
      await traffic(first);
      before = facts(await first.sandbox.journal.records(undefined, 'api'));
    } finally {
      await first.close();
    }
    const second = await testSandbox({ data: file });
    try {
      const after = facts(await second.sandbox.journal.records(undefined, 'api'));
      expect(after).toHaveLength(5);
      expect(after).toEqual(before.map((r) => ({ ...r, token: undefined })));
    } finally {
      await second.close();
    }
  });
});
