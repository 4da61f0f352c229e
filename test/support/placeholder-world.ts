/** The shared setup of the placeholder tests: a sent contract with one recipient, and the calls they make. */
import { type Auth, FROZEN, type TestSandbox, testSandbox } from './helpers.js';

export interface PlaceholderWorld {
  t: TestSandbox;
  auth: Auth;
  contractKey: string;
  recipientKey: string;
}

/** A fresh sandbox with a contract sent to one recipient. */
export async function placeholderWorld(): Promise<PlaceholderWorld> {
  const t = await testSandbox(FROZEN);
  const auth = await t.demoAuth();
  const contractKey = (
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'P', value: 'x' } } }, auth)
  ).body.contract.contractKey;
  await t.post(
    '/api/recipient',
    { data: { action: 'send', contractKey, recipients: [{ email: 'a@b.test', fullname: 'A B' }] } },
    auth,
  );
  const recipientKey = (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body
    .recipients[0].recipientKey;
  return { t, auth, contractKey, recipientKey };
}

/** The placeholder calls, reading the current world through `w`. */
export function placeholderCalls(w: () => PlaceholderWorld) {
  const update = (placeholders: unknown) =>
    w().t.post(
      '/api/placeholder',
      { data: { action: 'update', contractKey: w().contractKey, placeholders } },
      w().auth,
    );
  const call = (data: object, as: Auth = w().auth, headers: Record<string, string> = {}) =>
    w().t.request('/api/placeholder', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(as as { bearer: string }).bearer}`,
        ...headers,
      },
      body: JSON.stringify({ data }),
    });
  const createPlaceholder = async (
    placeholder: object = { name: 'price', value: '100' },
    owner: object = { contractKey: w().contractKey },
  ) =>
    (await w().t.post('/api/placeholder', { data: { action: 'create', ...owner, placeholder } }, w().auth)).body
      .placeholder;
  /** An update of one placeholder (`placeholder`, not the list), of the contract unless another owner is named. */
  const updateOne = (placeholder: object, owner: object = { contractKey: w().contractKey }) =>
    w().t.post('/api/placeholder', { data: { action: 'update', ...owner, placeholder } }, w().auth);
  return { update, updateOne, call, createPlaceholder };
}
