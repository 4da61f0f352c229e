/**
 * A follower's forwarding (src/team/forward.ts) when the leader it kept a connection to is gone: the request goes to
 * the next leader, body and all, never a cut connection (docs/team-sandbox.md: requests that arrive while the leader
 * is killed wait for the next one). In-process servers; the dead leader's connection is closed in the very turn the
 * follower picks it from its pool, as after a `kill -9` whose close the follower has not read yet.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Forwarded, forward, forwardingAgent } from '../../src/team/forward.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A server on a free port; `sockets` holds its open connections. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const sockets = new Set<Socket>();
  const server = createServer({ keepAlive: true }, handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), sockets };
}

/** A leader that answers with the body it read. */
const echoLeader = (name: string) =>
  serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ leader: name, body: Buffer.concat(chunks).toString() }));
    });
  });

describe('a follower forwarding to a leader that died with a kept-alive connection open', () => {
  it('asks the next leader with the whole body, and its client gets that answer', async () => {
    const old = await echoLeader('old');
    const next = await echoLeader('next');
    const agent = forwardingAgent();
    const outcomes: Forwarded[] = [];
    let killOldFirst = false;
    const follower = await serve(async (req, res) => {
      // The old leader's process ends: its connections close before the follower has read that they did.
      if (killOldFirst) for (const socket of old.sockets) socket.destroy();
      const first = await forward(req, res, old.url, agent);
      outcomes.push(first);
      if (first === 'unreachable') outcomes.push(await forward(req, res, next.url, agent));
    });
    const post = (body: string) =>
      fetch(follower.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (res) => ({ status: res.status, body: await res.json() }),
        (error: Error) => ({ status: 0, body: `${error.message}: ${String((error.cause as Error)?.message)}` }),
      );

    expect(await post('{"n":1}')).toEqual({ status: 200, body: { leader: 'old', body: '{"n":1}' } });
    expect(old.sockets.size).toBe(1);
    killOldFirst = true;
    expect(await post('{"n":2}')).toEqual({ status: 200, body: { leader: 'next', body: '{"n":2}' } });
    expect(outcomes).toEqual(['answered', 'unreachable', 'answered']);
    agent.destroy();
  });
});
