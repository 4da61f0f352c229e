// A TCP port free on 127.0.0.1 now: the system picks one, we close it and hand its number on. The PostgreSQL cluster
// of the tests' set-up and the benches start their servers on it (never a fixed port).
import { createServer } from 'node:net';

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
