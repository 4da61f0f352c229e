/**
 * examples/team/compose.yaml (docs/team-sandbox.md): the file the page shows, and its replicas started from the
 * file's values as the image would run them (its ESIGN_SANDBOX_DATA default included: a replica given a store
 * leaves it, or it would refuse to start), on this test's database,
 * ports moved to free ones. No container engine runs PostgreSQL or nginx here (no image registry is reachable):
 * the test sends what the load balancer would, the file's Host header to either replica, and checks nginx.conf
 * names both replicas and passes the Host through.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../support/ci-kit.js';
import { ROOT, docBlocks } from '../support/doc-blocks.js';
import { type ReplicaProcess, useTeam } from '../support/team.js';

const team = useTeam();
const text = readFileSync(join(ROOT, 'examples/team/compose.yaml'), 'utf8');
const compose = parse(text, { merge: true }) as {
  services: Record<string, { image?: string; environment?: Record<string, string>; ports?: string[] }>;
};
const nginx = readFileSync(join(ROOT, 'examples/team/nginx.conf'), 'utf8');
/** What the image sets (Dockerfile), under the file's environment. */
const IMAGE_ENV = {
  ESIGN_SANDBOX_HOST: '127.0.0.1',
  ESIGN_SANDBOX_DATA: '/data/sandbox.json',
  ESIGN_SANDBOX_ALLOWED_HOST: 'esign',
};

describe('examples/team/compose.yaml', () => {
  it('is the file docs/team-sandbox.md shows: PostgreSQL, two replicas on it, a load balancer before them', () => {
    const shown = docBlocks('docs/team-sandbox.md').find((b) => b.lang === 'yaml' && b.text.includes('services:'));
    const withoutHeader = text.replace(/^(#[^\n]*\n)+/, '');
    expect(`${shown?.text}\n`).toBe(withoutHeader);
    expect(Object.keys(compose.services).sort()).toEqual(['esign', 'esign-1', 'esign-2', 'postgres']);
    for (const name of ['esign-1', 'esign-2'])
      expect(compose.services[name]!.environment!.ESIGN_SANDBOX_STORE).toBe(
        'postgres://esign:esign@postgres:5432/esign',
      );
    expect(nginx).toMatch(/server esign-1:4010/);
    expect(nginx).toMatch(/server esign-2:4010/);
    expect(nginx).toMatch(/proxy_set_header Host \$http_host;/);
    expect(compose.services.esign!.ports).toEqual(['4010:4010']);
  });

  it('runs as one sandbox from its values: a write through either replica is read through the other, and after one is killed', async () => {
    const ports = [await freePort(), await freePort()];
    const replicas: ReplicaProcess[] = [];
    for (const [i, name] of ['esign-1', 'esign-2'].entries()) {
      const env = compose.services[name]!.environment!;
      replicas.push(
        await team.replica([], {
          ...IMAGE_ENV,
          ...env,
          ESIGN_SANDBOX_STORE: team.store(),
          ESIGN_SANDBOX_PORT: String(ports[i]),
          ESIGN_SANDBOX_ADVERTISE_URL: env.ESIGN_SANDBOX_ADVERTISE_URL!.replace(
            /esign-\d:4010/,
            `127.0.0.1:${ports[i]}`,
          ),
        }),
      );
      if (i === 0) await replicas[0]!.leading();
    }
    // What the load balancer sends: the client's Host (the compose service name) to either replica.
    const send = async (i: number, path: string, body: unknown, token?: string) => {
      const res = await fetch(`${replicas[i]!.url}${path}`, {
        method: 'POST',
        headers: {
          host: 'esign:4010',
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const platform = await send(1, '/api/token', {
      data: { action: 'create', apiKey: 'sandboxApiKey', secret: 'sandboxSecret' },
    });
    const client = await send(
      0,
      '/api/token',
      { action: 'create', clientKey: 'demoClient' },
      platform.body.access_token,
    );
    const token = client.body.access_token;
    const made = await send(
      1,
      '/api/contract',
      {
        data: {
          action: 'create',
          contract: { name: 'Through the load balancer', value: '<p>x</p>' },
          recipients: [{ fullname: 'Ann', email: 'ann@example.com', action: 'sign' }],
        },
      },
      token,
    );
    expect(made.status).toBe(201);
    const key = made.body.contract.contractKey;
    const readOn = async (i: number) =>
      send(i, '/api/contract', { data: { action: 'read', contract: { contractKey: key } } }, token);
    expect((await readOn(0)).body.contract.name).toBe('Through the load balancer');
    // Links name the load balancer's address (ESIGN_SANDBOX_PUBLIC_URL), whichever replica leads.
    const emails = await fetch(`${replicas[1]!.url}/__sandbox/emails`, { headers: { host: 'esign:4010' } });
    expect(JSON.stringify(await emails.json())).toContain('http://esign:4010/sharing/');

    await replicas[0]!.kill();
    expect((await readOn(1)).body.contract.name).toBe('Through the load balancer');
  });
});
