/**
 * Callers who must not see the demo client's records: another client of the same platform (with its own client
 * token) and a client of another platform (API-key header plus its clientKey). Each answers 404 for the demo's keys.
 */
import type { Auth, TestSandbox } from './helpers.js';

export interface Outsider {
  name: string;
  auth: Auth;
  /** `data.clientKey` the outsider sends (absent with a client token). */
  clientKey?: string;
}

/** The outsiders' names, in the order outsiders() gives them: a test looping over them asserts it got these. */
export const OUTSIDERS = ['another client of the platform', 'a client of another platform'];

export async function outsiders(t: TestSandbox): Promise<Outsider[]> {
  const platform = await t.platformToken();
  const sibling = await t.post(
    '/api/client',
    { data: { action: 'create', client: { fullname: 'Sibling' } } },
    { bearer: platform },
  );
  const siblingToken = await t.clientToken(sibling.body.client.clientKey, platform);
  const tenant = await t.control('/platforms', {
    apiKey: `other${Math.floor(Math.random() * 1e9)}`,
    secret: 'otherSecret',
  });
  const foreign = await t.post(
    '/api/client',
    { data: { action: 'create', client: { fullname: 'Foreign' } } },
    { apiKey: tenant.body.apiKey },
  );
  return [
    { name: OUTSIDERS[0]!, auth: { bearer: siblingToken } },
    {
      name: OUTSIDERS[1]!,
      auth: { apiKey: tenant.body.apiKey },
      clientKey: foreign.body.client.clientKey,
    },
  ];
}

/** Adds the outsider's clientKey (if any) to a `{data: {...}}` body. */
export function asOutsider(o: Outsider, body: { data: Record<string, unknown> }): { data: Record<string, unknown> } {
  return o.clientKey === undefined ? body : { data: { ...body.data, clientKey: o.clientKey } };
}
