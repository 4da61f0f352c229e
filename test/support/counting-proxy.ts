/**
 * A TCP proxy in front of a port that counts the connections clients open through it, so a test sees whether an
 * HTTP client (Node's fetch, whose pool is out of reach) kept its connection or had to open another.
 */
import { type Server, type Socket, connect, createServer } from 'node:net';

export interface CountingProxy {
  url: string;
  /** Connections opened through the proxy so far. */
  connections(): number;
  /** Connections the server (behind the proxy) has closed or reset so far. */
  closedByServer(): number;
  close(): Promise<void>;
}

export async function countingProxy(port: number): Promise<CountingProxy> {
  let count = 0;
  let closed = 0;
  let closing = false;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    count++;
    const upstream = connect(port, '127.0.0.1');
    // The client ending its side first, or the proxy closing, is not the server's doing.
    let clientEnded = false;
    client.on('end', () => {
      clientEnded = true;
    });
    upstream.on('close', () => {
      if (!clientEnded && !closing) closed++;
    });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(from);
      from.pipe(to);
      // A reset on one side resets the other, so the client meets what it would have met without the proxy.
      from.on('error', () => to.resetAndDestroy());
      from.on('close', () => open.delete(from));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${own}`,
    connections: () => count,
    closedByServer: () => closed,
    close: async () => {
      closing = true;
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
