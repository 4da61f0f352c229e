/**
 * Who leads a team sandbox (docs/team-sandbox.md): the replica whose connection holds the leader's advisory lock in
 * PostgreSQL. Every replica waits for it on a connection of its own; when the leader's process dies (or its
 * connection does), PostgreSQL releases the lock and the next waiting replica gets it, within the time the database
 * takes to see the connection gone (at once for a killed process on the same network).
 */
import { type Client, LOCKS, connect } from '../store/postgres.js';

/**
 * Resolves with the connection that holds the leader's lock, once this replica has it. Connection failures are
 * retried every `retryMs` (told to `onRetry`) until `stopped()` says the replica is stopping (then it rejects).
 */
export async function awaitLeadership(
  url: string,
  options: {
    stopped: () => boolean;
    retryMs?: number;
    onWaiting?: (client: Client) => void;
    onRetry?: (error: unknown) => void;
  },
): Promise<Client> {
  for (;;) {
    if (options.stopped()) throw new Error('stopping');
    let client: Client | undefined;
    try {
      client = await connect(url, 'replica');
      options.onWaiting?.(client);
      await client.query('SELECT pg_advisory_lock($1, $2)', [...LOCKS.leader]);
      if (options.stopped()) throw new Error('stopping');
      return client;
    } catch (error) {
      await client?.end().catch(() => undefined);
      if (options.stopped()) throw error;
      options.onRetry?.(error);
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 1000));
    }
  }
}
