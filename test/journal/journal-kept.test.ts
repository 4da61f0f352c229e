/**
 * The request journal as --data keeps it (docs/persistence.md, "What is kept"): after a restart it shows every kept
 * entry as it showed it before, the data file holds no credential the journal would not show, and a data file whose
 * entries were kept as shown (files written before) reads as before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { dataFileEachTest } from '../support/data-file.js';
import type { TestSandbox } from '../support/helpers.js';

const data = dataFileEachTest('esign-journal-kept-');

/** Secrets the requests below send: in a body, in a body under a key written with an escape, in a query string. */
const HIDDEN = ['hidden-in-body', 'hidden-escaped', 'hidden-in-query'];

/** Requests of every shape the journal keeps: with secrets, an error answer, a trace, repeated headers. */
async function someRequests(t: TestSandbox): Promise<void> {
  const bearer = await t.clientToken();
  const auth = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
  const made = await t.post(
    '/api/contract',
    { data: { action: 'create', contract: { name: 'Kept', value: '<p>x</p>' } } },
    { bearer },
  );
  expect(made.status).toBe(201);
  await t.request('/api/contract', {
    method: 'POST',
    headers: { ...auth, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    body: JSON.stringify({ data: { action: 'read', contractKey: made.body.contract.contractKey, secret: HIDDEN[0] } }),
  });
  await t.request('/api/contract', {
    method: 'POST',
    headers: auth,
    body: '{"data":{"action":"read","contractKey":"nope","s\\u0065cret":"hidden-escaped"}}',
  });
  await t.request(`/__sandbox/health?access_token=${HIDDEN[2]}&plain=1`);
  await t.post('/api/contract', 'not json', { bearer });
}

const journalOf = async (t: TestSandbox) => (await t.control('/requests')).body.requests as unknown[];
const fileText = () => readFileSync(data.file, 'utf8') + readFileSync(`${data.file}.journal`, 'utf8');

it('shows each kept entry after a restart as it showed it before, and keeps no credential', async () => {
  const first = await data.sandbox();
  await someRequests(first);
  const before = await journalOf(first);
  expect(JSON.stringify(before)).toContain('[redacted]');
  await data.kill(first);
  for (const secret of [...HIDDEN, await first.clientToken()]) expect(fileText()).not.toContain(secret);

  const second = await data.sandbox();
  const after = await journalOf(second);
  // The second sandbox's own read of the journal comes after the kept entries.
  expect(after.slice(0, before.length)).toEqual(before);
});

it('reads a data file whose journal entries were kept as shown', async () => {
  const first = await data.sandbox();
  await someRequests(first);
  const before = (await journalOf(first)) as Array<{ id: number }>;
  await data.kill(first);
  // Each kept entry rewritten in the form files written before hold: its time, tenant and the entry as shown.
  const shown = new Map(before.map((e) => [String(e.id), e]));
  const older = (record: any, key: string) =>
    record && {
      atMs: record.atMs,
      ...(record.platformId ? { platformId: record.platformId } : {}),
      entry: shown.get(key),
    };
  const snapshot = JSON.parse(readFileSync(data.file, 'utf8'));
  for (const [key, record] of Object.entries(snapshot.kept?.requests ?? {}))
    snapshot.kept.requests[key] = older(record, key);
  writeFileSync(data.file, JSON.stringify(snapshot));
  const lines = readFileSync(`${data.file}.journal`, 'utf8').split('\n').filter(Boolean);
  const rewritten = lines.map((line) => {
    const parsed = JSON.parse(line);
    parsed.ops = parsed.ops.map(([c, k, r]: [string, string, unknown]) =>
      c === 'requests' ? [c, k, older(r, k)] : [c, k, r],
    );
    return JSON.stringify(parsed);
  });
  expect(JSON.stringify(snapshot) + rewritten.join('\n')).toContain('"entry":{"id":');
  writeFileSync(`${data.file}.journal`, `${rewritten.join('\n')}\n`);

  const second = await data.sandbox();
  expect((await journalOf(second)).slice(0, before.length)).toEqual(before);
});
