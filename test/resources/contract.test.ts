import { beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, sandboxEachTest } from '../support/helpers.js';
import { asOutsider, OUTSIDERS, outsiders } from '../support/outsiders.js';

const t = sandboxEachTest();
let auth: Auth;
beforeEach(async () => {
  auth = await t.demoAuth();
});

const create = (contract: object, extra: object = {}) =>
  t.post('/api/contract', { data: { action: 'create', contract, ...extra } }, auth);

/** A second client of the demo platform, made through /api/client, and the platform token that acts for it. */
async function otherClient(): Promise<{ clientKey: string; auth: Auth }> {
  const platform = await t.platformToken();
  const made = await t.post(
    '/api/client',
    { data: { action: 'create', client: { fullname: 'O' } } },
    { bearer: platform },
  );
  return { clientKey: made.body.client.clientKey, auth: { bearer: platform } };
}

describe('contract create', () => {
  it("with content answers 201 with the key and a create time in the real contract pages' SQL format", async () => {
    const res = await create({ name: 'NDA', value: '<p>hi</p>' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      contract: { createTime: '2026-03-01 09:00:00', contractKey: expect.stringMatching(/^[A-Za-z0-9]+$/) },
      code: '201',
      message: 'Contract created',
    });
  });

  it('from a template copies the template content', async () => {
    const res = await create({ name: 'From template', templateKey: DEMO.templateKey });
    expect(res.status).toBe(201);
    const stored = t.sandbox.services.store.contracts.get(res.body.contract.contractKey)!;
    expect(stored.value).toContain('Mutual non-disclosure');
    expect(stored.templateKey).toBe(DEMO.templateKey);
  });

  it('with recipients creates and sends', async () => {
    const res = await create(
      { name: 'C&S', value: 'x' },
      { recipients: [{ email: 'a@b.test', fullname: 'A B', position: 1 }] },
    );
    const key = res.body.contract.contractKey;
    const list = await t.post('/api/contract', { data: { action: 'list' } }, auth);
    expect(list.body.contracts.find((c: { contractKey: string }) => c.contractKey === key).status).toBe('Sent');
    const recipients = await t.post('/api/recipient', { data: { action: 'list', contractKey: key } }, auth);
    expect(recipients.body.recipients).toHaveLength(1);
  });

  it("uses the given userKey, and refuses another client's user", async () => {
    expect((await create({ name: 'x', value: 'y' }, { userKey: 'demoUser2' })).status).toBe(201);
    const res = await create({ name: 'x', value: 'y' }, { userKey: 'nope' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('User not found');
  });

  it.each([
    ['no name', { value: 'x' }, 400, 'data.contract.name'],
    ['an empty name', { name: '', value: 'x' }, 400, 'data.contract.name'],
    ['neither value nor templateKey', { name: 'x' }, 400, 'data.contract'],
    ['a numeric value', { name: 'x', value: 5 }, 400, 'data.contract.value'],
  ])('refuses %s', async (_name, contract, status, path) => {
    const res = await create(contract);
    expect(res.status).toBe(status);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("takes the template's content when the components send its value beside its key, and a PDF type with their editor's empty value", async () => {
    const both = await create({
      name: 'Both',
      value: '<p>echoed</p>',
      templateKey: DEMO.templateKey,
      contractType: '',
    });
    expect(both.status).toBe(201);
    const stored = t.sandbox.services.store.contracts.get(both.body.contract.contractKey)!;
    expect(stored.value).toContain('Mutual non-disclosure');
    const pdf = await create({ name: 'Upload follows', value: '<div></div>', templateKey: '', contractType: 'pdf' });
    expect(pdf.status).toBe(201);
    expect(t.sandbox.services.store.contracts.get(pdf.body.contract.contractKey)).toMatchObject({
      contractType: 'pdf',
      value: '',
    });
  });

  it('answers 404 for an unknown template', async () => {
    const res = await create({ name: 'x', templateKey: 'nope' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'Template not found' });
  });

  it('refuses a recipient without email when sending', async () => {
    const res = await create({ name: 'x', value: 'y' }, { recipients: [{ fullname: 'No Mail' }] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'data.recipients.0.email', message: 'Required for a new recipient' }]);
  });
});

describe('contract list', () => {
  it("lists the client's contracts in creation order with ISO times and status Created", async () => {
    await create({ name: 'one', value: '1' });
    await t.sandbox.services.clocks.sandbox.advance(60_000);
    await create({ name: 'two', value: '2' });
    const res = await t.post('/api/contract', { data: { action: 'list' } }, auth);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Contracts found');
    expect(res.body.contracts.map((c: { name: string }) => c.name)).toEqual(['one', 'two']);
    expect(res.body.contracts[1]).toEqual({
      createTime: '2026-03-01T09:01:00.000Z',
      changeTime: '2026-03-01T09:01:00.000Z',
      contractKey: expect.any(String),
      name: 'two',
      status: 'Created',
    });
  });

  it('shows each contract as it is now, after it changes', async () => {
    const key = (await create({ name: 'Moving', value: 'x' })).body.contract.contractKey;
    const row = async () => (await t.post('/api/contract', { data: { action: 'list' } }, auth)).body.contracts[0];
    expect(await row()).toMatchObject({ status: 'Created', changeTime: '2026-03-01T09:00:00.000Z' });
    await t.sandbox.services.clocks.sandbox.advance(2000);
    await t.post('/api/contract', { data: { action: 'update', contract: { contractKey: key, name: 'Moved' } } }, auth);
    expect(await row()).toMatchObject({ name: 'Moved', changeTime: '2026-03-01T09:00:02.000Z' });
  });

  it('leaves archived contracts out, as the components drop their row; a read still answers Archived', async () => {
    const kept = (await create({ name: 'Kept', value: 'x' })).body.contract.contractKey;
    const gone = (await create({ name: 'Gone', value: 'x' })).body.contract.contractKey;
    await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey: gone } } }, auth);
    const list = await t.post('/api/contract', { data: { action: 'list' } }, auth);
    expect(list.body.contracts.map((c: { contractKey: string }) => c.contractKey)).toEqual([kept]);
    const read = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey: gone } } }, auth);
    expect(read.body.contract.status).toBe('Archived');
  });

  it("never shows another client's contracts", async () => {
    await create({ name: 'mine', value: '1' });
    const other = await otherClient();
    const res = await t.post('/api/contract', { data: { action: 'list', clientKey: other.clientKey } }, other.auth);
    expect(res.body.contracts).toEqual([]);
  });
});

describe('contract archive', () => {
  it('answers the key and name with "Contract archived", then refuses a second archive', async () => {
    const key = (await create({ name: 'Old', value: 'x' })).body.contract.contractKey;
    const res = await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey: key } } }, auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      contract: { contractKey: key, name: 'Old' },
      code: '200',
      message: 'Contract archived',
    });
    const again = await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey: key } } }, auth);
    expect(again.status).toBe(409);
  });

  it("answers 404 for another client's contract, as if it did not exist", async () => {
    const key = (await create({ name: 'Mine', value: 'x' })).body.contract.contractKey;
    const other = await otherClient();
    const res = await t.post(
      '/api/contract',
      { data: { action: 'archive', clientKey: other.clientKey, contract: { contractKey: key } } },
      other.auth,
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Contract not found');
  });
});

describe('contract read', () => {
  it('answers the whole record: status, value, numeric type (8: HTML), SQL-format times', async () => {
    const key = (await create({ name: 'NDA', value: '<p>hi</p>' })).body.contract.contractKey;
    const res = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey: key } } }, auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      contract: {
        createTime: '2026-03-01 09:00:00',
        changeTime: '2026-03-01 09:00:00',
        contractKey: key,
        name: 'NDA',
        status: 'Created',
        statusId: 1,
        value: '<p>hi</p>',
        contractType: 8,
        templateKey: null,
        userKey: DEMO.userKey,
      },
      code: '200',
      message: 'Contract found',
    });
  });

  it('shows the status after sending and the type given at create as its code', async () => {
    const key = (
      await create({ name: 'D', value: '<p>x</p>', contractType: 'docx' }, { recipients: [{ email: 'a@b.test' }] })
    ).body.contract.contractKey;
    const res = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey: key } } }, auth);
    expect(res.body.contract).toMatchObject({ status: 'Sent', statusId: 2, contractType: 6 });
  });

  it.each([
    ['html', 8],
    ['empty', 8],
    ['ai', 8],
    ['docx', 6],
    ['pdf', 7],
    ['', 8],
    ['7', 7],
    [6, 6],
  ])('reads a contract created with contractType %j as %i', async (contractType, code) => {
    const res = await create({ name: 'Typed', value: '<p>x</p>', contractType });
    expect(res.status).toBe(201);
    const key = res.body.contract.contractKey;
    const read = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey: key } } }, auth);
    expect(read.body.contract.contractType).toBe(code);
  });

  it('answers 404 for an unknown key', async () => {
    const res = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey: 'nope' } } }, auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'Contract not found' });
  });
});

describe('contract operations across tenants', () => {
  it.each(['read', 'update', 'duplicate'])(
    "%s answers 404 for another client's or platform's contract",
    async (action) => {
      const key = (await create({ name: 'Mine', value: 'x' })).body.contract.contractKey;
      const others = await outsiders(t);
      expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
      for (const o of others) {
        const res = await t.post(
          '/api/contract',
          asOutsider(o, { data: { action, contract: { contractKey: key, name: 'Hijack' } } }),
          o.auth,
        );
        expect(res.status, o.name).toBe(404);
        expect(res.body.message).toBe('Contract not found');
      }
    },
  );
});

describe('operations the spec does not show', () => {
  it('answers 400 Unknown action for contract delete, naming the valid ones', async () => {
    const res = await t.post('/api/contract', { data: { action: 'delete' } }, auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Unknown action "delete" for /api/contract; valid actions: list, create, read, update, duplicate, archive',
    );
  });
});
