/**
 * Connection faults in a team sandbox (docs/scenarios.md, "Connection faults"): a fault set through one replica is the
 * team's, and a client of another replica, whose request that replica forwards to the leader, meets the fault's own
 * kind as a client of one sandbox does (test/api-faults/connection-faults.test.ts), with or without a request body.
 * Real CLI processes on this test's database.
 */
import { describe, expect, it } from 'vitest';
import { useTeam } from '../support/team.js';

const team = useTeam();

const J = { 'content-type': 'application/json' };
const KEY = { 'x-service-key': 'sandboxApiKey' };

/** What Node's fetch met: the status, or the error it rejected with (on the answer or its body) as `message: code`. */
async function met(request: Promise<Response>): Promise<string> {
  try {
    const res = await request;
    await res.text();
    return `answered ${res.status}`;
  } catch (error) {
    const { message, cause } = error as Error & { cause?: { code?: string } };
    return `${message}: ${cause?.code}`;
  }
}

/** A contract list (a POST with a body) and a file download (a GET without one) through `base`. */
const list = (base: string) =>
  met(
    fetch(`${base}/api/contract`, {
      method: 'POST',
      headers: { ...J, ...KEY },
      body: JSON.stringify({ data: { action: 'list', clientKey: 'demoClient' } }),
    }),
  );
const download = (base: string) =>
  met(fetch(`${base}/api/download_pdf?contractKey=none&clientKey=demoClient`, { headers: KEY }));

async function setFault(base: string, path: string, connection: string): Promise<string> {
  const res = await fetch(`${base}/__sandbox/faults`, {
    method: 'POST',
    headers: J,
    body: JSON.stringify({ match: { path }, connection, times: 1 }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { ids: string[] }).ids[0]!;
}

async function hits(base: string, id: string): Promise<number | undefined> {
  const { faults } = (await (await fetch(`${base}/__sandbox/faults`)).json()) as {
    faults: { id: string; hits: number }[];
  };
  return faults.find((f) => f.id === id)?.hits;
}

describe('a connection fault set through one replica, met through another', () => {
  it.each([
    ['reset', 'fetch failed: ECONNRESET'],
    ['empty', 'fetch failed: UND_ERR_SOCKET'],
    ['garbage', 'fetch failed: HPE_INVALID_CONSTANT'],
    ['malformed-chunk', 'terminated: HPE_INVALID_CHUNK_SIZE'],
  ])(
    '%s: the client of the forwarding replica meets it as of one sandbox; then the next request answers',
    async (kind, expected) => {
      const leader = await team.replica();
      await leader.leading();
      const follower = await team.replica();
      expect(await list(follower.url)).toBe('answered 200');

      const posted = await setFault(leader.url, '/api/contract', kind);
      expect(await list(follower.url)).toBe(expected);
      expect(await hits(follower.url, posted)).toBe(1);
      expect(await list(follower.url)).toBe('answered 200');

      const got = await setFault(follower.url, '/api/download_pdf', kind);
      expect(await download(follower.url)).toBe(expected);
      expect(await hits(leader.url, got)).toBe(1);
      expect(await download(follower.url)).toBe('answered 404');
    },
    90_000,
  );
});
