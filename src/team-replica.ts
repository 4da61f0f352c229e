/**
 * One replica of a team sandbox (`--store postgres://…`, docs/team-sandbox.md). Every replica listens; one at a time
 * leads: it holds the leader's lock in PostgreSQL (team/election.ts), runs the one sandbox (createSandbox, its
 * state read from the database and every change committed there before the answer that made it leaves), and answers
 * every request; the others forward each request to it (team/forward.ts) and wait for the lock. So any request to any
 * replica sees every acknowledged write, one clock runs per tenant, and each timer, delivery and scenario step runs
 * on the leader only.
 *
 * When the leader dies, PostgreSQL releases its lock, the next replica takes it, reads the state (records, pending
 * deliveries and retries, timers, clocks: everything a data file keeps) and goes on where the leader stood; a
 * request that arrives meanwhile waits up to FOLLOW_WAIT_MS for a leader, then gets a 503 with Retry-After. A leader
 * that cannot commit, or has not heard from the database for LIVENESS_MS, answers 503 and steps down, so no replica
 * ever answers from a state the database does not hold.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { getRequestListener } from '@hono/node-server';
import { ConfigError, DEFAULT_PORT, type SandboxOptions, resolveConfig } from './config/options.js';
import { monotonicNow } from './core/clock.js';
import { errorBody } from './core/errors.js';
import { answerClientError, answerExpectation, checkingHead } from './http/client-error.js';
import { type Sandbox, createSandbox } from './sandbox.js';
import { type Client, connect, describeUrl, prepareDatabase, readMeta, writeMeta } from './store/postgres.js';
import { awaitLeadership } from './team/election.js';
import { FORWARDED_HEADER, NOT_LEADER_HEADER, forward, forwardingAgent } from './team/forward.js';
import { urlHost } from './wiring/listener.js';

/** How long a request to a replica that does not lead waits for a leader before its 503. */
export const FOLLOW_WAIT_MS = 5_000;
/** A leader that has not heard from the database for this long checks before it answers (and steps down if it cannot). */
export const LIVENESS_MS = 2_000;
/** How often an idle leader asks the database whether it is still there. */
const PING_MS = 1_000;

export interface TeamOptions {
  /** `postgres://…` (or `postgresql://…`). */
  store: string;
  /** The address the other replicas reach this one at (default: the listening address). */
  advertiseUrl?: string | undefined;
}

/** What a replica says about itself, for the CLI's log. */
export type ReplicaEvent =
  | { event: 'listening'; url: string; advertised: string }
  | { event: 'leading'; loadedMs: number; loaded: boolean; sandbox: Sandbox }
  | { event: 'following'; leader: string }
  | { event: 'stepped-down'; reason: string }
  | { event: 'waiting'; reason: string };

export interface Replica {
  /** Where this replica listens. */
  readonly url: string;
  /** Whether it leads now. */
  leading(): boolean;
  /** Resolves once a leader answers through this replica (itself, or another it knows). */
  readonly ready: Promise<void>;
  /** Stops answering; a leader writes what is pending and lets the lock go, so another takes over. */
  close(): Promise<void>;
}

interface Leadership {
  client: Client;
  sandbox: Sandbox;
  serve: (req: IncomingMessage, res: ServerResponse) => unknown;
  /** Monotonic time the database last answered this leader. */
  lastHeard: number;
  ping: NodeJS.Timeout;
}

export async function startReplica(
  options: SandboxOptions,
  team: TeamOptions,
  tell: (event: ReplicaEvent) => void,
  onFatal: (error: unknown) => void,
): Promise<Replica> {
  if (!/^postgres(ql)?:\/\//.test(team.store))
    throw new ConfigError(`--store takes a postgres:// URL (got "${describeUrl(team.store)}")`);
  if (options.data) throw new ConfigError('--store and --data both say where the state lives: pick one');
  if (options.tls || options.tlsCert || options.tlsKey)
    throw new ConfigError('A team sandbox speaks plain HTTP: end TLS at the load balancer (docs/team-sandbox.md)');
  const config = resolveConfig(options, { port: DEFAULT_PORT });
  let meta: Client;
  try {
    meta = await connect(team.store, 'replica');
    await prepareDatabase(meta, team.store);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Cannot use the database ${describeUrl(team.store)}: ${(error as Error).message}`);
  }

  let stopped = false;
  let leadership: Leadership | undefined;
  let waitingClient: Client | undefined;
  let knownLeader: string | undefined;
  const agent = forwardingAgent();

  const server = checkingHead(createServer)({}, (req, res) => {
    if (leadership) return void leadership.serve(req, res);
    if (req.headers[FORWARDED_HEADER] !== undefined)
      return unavailable(res, 'This replica does not lead the team sandbox any more; ask again', NOT_LEADER_HEADER);
    void follow(req, res);
  });
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectation);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(`Port ${config.port} on ${config.host} is already in use; pick another with --port`)
          : error,
      ),
    );
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(config.host)}:${port}`;
  const advertised = team.advertiseUrl ?? `http://${advertisedHost(config.host)}:${port}`;
  tell({ event: 'listening', url, advertised });

  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  /** Waits for the lock, then leads; after a step-down, waits again. */
  const elect = async () => {
    let client: Client;
    try {
      client = await awaitLeadership(team.store, {
        stopped: () => stopped,
        onWaiting: (c) => (waitingClient = c),
        onRetry: (error) => tell({ event: 'waiting', reason: `database unreachable: ${(error as Error).message}` }),
      });
    } catch {
      return; // stopping
    } finally {
      waitingClient = undefined;
    }
    try {
      await lead(client);
    } catch (error) {
      await client.end().catch(() => undefined);
      if (error instanceof ConfigError) return onFatal(error);
      tell({ event: 'stepped-down', reason: `could not take over: ${(error as Error).message}` });
      if (!stopped) setTimeout(() => void elect(), 1000);
    }
  };

  const lead = async (client: Client) => {
    const started = monotonicNow();
    const stepDownOnError = (error: unknown) => void stepDown(`the database connection failed: ${String(error)}`);
    client.on('error', stepDownOnError);
    client.on('end', () => stepDownOnError('closed'));
    const sandbox = await createSandbox(
      { ...options, log: options.log ?? 'pretty' },
      {
        port: config.port,
        webhooksAfterListen: true,
        team: { client, onFailure: (error) => void stepDown(`a commit failed: ${String(error)}`) },
      },
    );
    if (stopped) {
      await sandbox.close();
      await client.end();
      return;
    }
    sandbox.serveAt(advertised);
    try {
      await writeMeta(client, 'leader', advertised);
    } catch (error) {
      await sandbox.services.store.abandon();
      await sandbox.close().catch(() => undefined);
      throw error;
    }
    const own: Leadership = {
      client,
      sandbox,
      serve: getRequestListener(async (request, env) => {
        if (!(await alive(own))) return unavailableResponse('The team sandbox lost its database; ask again shortly');
        const answer = await sandbox.app.fetch(request, env);
        try {
          // The answer leaves once what the request changed is committed: every acknowledged write is in the database.
          await sandbox.services.store.flush();
          own.lastHeard = monotonicNow();
        } catch {
          return unavailableResponse('The team sandbox could not commit this change; ask again shortly');
        }
        return answer;
      }),
      lastHeard: monotonicNow(),
      ping: setInterval(() => void alive(own, true), PING_MS),
    };
    own.ping.unref();
    leadership = own;
    knownLeader = advertised;
    tell({ event: 'leading', loadedMs: Math.round(monotonicNow() - started), loaded: sandbox.loadedFromFile, sandbox });
    markReady();
  };

  /** Whether the leader still has its database: asked when it has not heard from it lately (or `force`). */
  const alive = async (own: Leadership, force = false): Promise<boolean> => {
    if (leadership !== own) return false;
    if (!force && monotonicNow() - own.lastHeard < LIVENESS_MS) return true;
    try {
      await withTimeout(own.client.query('SELECT 1'), LIVENESS_MS);
      own.lastHeard = monotonicNow();
      return true;
    } catch (error) {
      void stepDown(`the database did not answer: ${String(error)}`);
      return false;
    }
  };

  const stepDown = async (reason: string) => {
    const own = leadership;
    if (!own) return;
    leadership = undefined;
    clearInterval(own.ping);
    tell({ event: 'stepped-down', reason });
    // What is not committed was never acknowledged: let it go, and the timers and deliveries with it.
    await own.sandbox.services.store.abandon();
    await own.sandbox.close().catch(() => undefined);
    await own.client.end().catch(() => undefined);
    if (!stopped) setTimeout(() => void elect(), 200);
  };

  /** A request to a replica that does not lead: to the leader, as soon as there is one. */
  const follow = async (req: IncomingMessage, res: ServerResponse) => {
    const deadline = monotonicNow() + FOLLOW_WAIT_MS;
    for (;;) {
      if (leadership) return void leadership.serve(req, res);
      const leader = await leaderAddress();
      if (leader && leader !== advertised) {
        const outcome = await forward(req, res, new URL(leader), agent);
        if (outcome === 'answered') return;
        knownLeader = undefined;
        if (outcome === 'stale') return;
      } else knownLeader = undefined;
      if (stopped || monotonicNow() > deadline)
        return unavailable(res, 'The team sandbox has no leader right now (one is taking over); ask again shortly');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const leaderAddress = async (): Promise<string | undefined> => {
    if (knownLeader) return knownLeader;
    try {
      const leader = await readMeta(meta, 'leader');
      if (leader && leader !== knownLeader && leader !== advertised) tell({ event: 'following', leader });
      knownLeader = leader;
      return leader;
    } catch {
      meta.end().catch(() => undefined);
      meta = await connect(team.store, 'replica').catch(() => meta);
      return undefined;
    }
  };

  void elect();
  // A follower is ready once it knows a leader.
  void (async () => {
    while (!stopped) {
      if (leadership || (await leaderAddress().catch(() => undefined))) return markReady();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();

  return {
    url,
    leading: () => leadership !== undefined,
    ready,
    async close() {
      stopped = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      const own = leadership;
      leadership = undefined;
      if (own) {
        clearInterval(own.ping);
        // Everything pending is committed, then the lock goes with the connection: another replica takes over.
        await own.sandbox.close();
        await own.client.end().catch(() => undefined);
      }
      await waitingClient?.end().catch(() => undefined);
      agent.destroy();
      await meta.end().catch(() => undefined);
    },
  };
}

/** The address other replicas reach a replica at: for a wildcard bind, the first outside IPv4 address. */
function advertisedHost(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return urlHost(host);
  for (const list of Object.values(networkInterfaces()))
    for (const address of list ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  return '127.0.0.1';
}

const RETRY_AFTER = '1';

function unavailableResponse(message: string): Response {
  return new Response(JSON.stringify(errorBody(503, message)), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': RETRY_AFTER },
  });
}

function unavailable(res: ServerResponse, message: string, mark?: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(503, {
    'content-type': 'application/json',
    'retry-after': RETRY_AFTER,
    ...(mark !== undefined ? { [mark]: '1' } : {}),
  });
  res.end(JSON.stringify(errorBody(503, message)));
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
