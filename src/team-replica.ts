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
import { type Agent, type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { getRequestListener } from '@hono/node-server';
import { ConfigError, DEFAULT_PORT, type SandboxOptions, resolveConfig } from './config/options.js';
import { monotonicNow } from './core/wall-time.js';
import { answerClientError, answerExpectation, checkingHead } from './http/client-error.js';
import { type Sandbox, createSandbox } from './sandbox.js';
import { type Client, connect, describeUrl, prepareDatabase, readMeta, writeMeta } from './store/postgres.js';
import { awaitLeadership } from './team/election.js';
import { FORWARDED_HEADER, NOT_LEADER_HEADER, forward, forwardingAgent } from './team/forward.js';
import { unavailable, unavailableResponse } from './team/unavailable.js';
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

/** What one replica knows, read and changed by its parts: the election, the leading and the following. */
interface ReplicaState {
  readonly options: SandboxOptions;
  readonly store: string;
  /** The port the sandbox believes it serves (the configured one, as a single sandbox's). */
  readonly port: number;
  /** The address the other replicas reach this one at. */
  readonly advertised: string;
  readonly tell: (event: ReplicaEvent) => void;
  readonly onFatal: (error: unknown) => void;
  /** Resolves the replica's `ready`. */
  readonly markReady: () => void;
  readonly agent: Agent;
  /** The connection that reads who leads (not the one that holds the lock). */
  meta: Client;
  stopped: boolean;
  leadership: Leadership | undefined;
  /** The connection waiting for the lock, ended on close. */
  waitingClient: Client | undefined;
  knownLeader: string | undefined;
}

export async function startReplica(
  options: SandboxOptions,
  team: TeamOptions,
  tell: (event: ReplicaEvent) => void,
  onFatal: (error: unknown) => void,
): Promise<Replica> {
  checkTeamOptions(options, team);
  const config = resolveConfig(options, { port: DEFAULT_PORT });
  const meta = await openDatabase(team.store);
  // `replica` is made once the port is known; no request arrives before `listen` resolves.
  const server = checkingHead(createServer)({}, (req, res) => answer(replica, req, res));
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectation);
  const port = await listen(server, config.host, config.port);
  const url = `http://${urlHost(config.host)}:${port}`;
  const advertised = team.advertiseUrl ?? `http://${advertisedHost(config.host)}:${port}`;
  tell({ event: 'listening', url, advertised });

  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const replica: ReplicaState = {
    options,
    store: team.store,
    port: config.port,
    advertised,
    tell,
    onFatal,
    markReady,
    agent: forwardingAgent(),
    meta,
    stopped: false,
    leadership: undefined,
    waitingClient: undefined,
    knownLeader: undefined,
  };
  void elect(replica);
  void markReadyOnceLed(replica);
  return {
    url,
    leading: () => replica.leadership !== undefined,
    ready,
    close: () => closeReplica(replica, server),
  };
}

/** What a team sandbox cannot be: told its state lives elsewhere too, or asked to speak TLS. */
function checkTeamOptions(options: SandboxOptions, team: TeamOptions): void {
  if (!/^postgres(ql)?:\/\//.test(team.store))
    throw new ConfigError(`--store takes a postgres:// URL (got "${describeUrl(team.store)}")`);
  if (options.data) throw new ConfigError('--store and --data both say where the state lives: pick one');
  if (options.tls || options.tlsCert || options.tlsKey)
    throw new ConfigError('A team sandbox speaks plain HTTP: end TLS at the load balancer (docs/team-sandbox.md)');
}

/** A connection to the team's database, its tables made if missing. */
async function openDatabase(store: string): Promise<Client> {
  try {
    const meta = await connect(store, 'replica');
    await prepareDatabase(meta, store);
    return meta;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Cannot use the database ${describeUrl(store)}: ${(error as Error).message}`);
  }
}

/** Listens, and tells the port listened on. */
function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(`Port ${port} on ${host} is already in use; pick another with --port`)
          : error,
      ),
    );
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** A request to this replica: its sandbox answers when it leads; otherwise it goes to the leader. */
function answer(replica: ReplicaState, req: IncomingMessage, res: ServerResponse): void {
  if (replica.leadership) void replica.leadership.serve(req, res);
  else if (req.headers[FORWARDED_HEADER] !== undefined)
    unavailable(res, 'This replica does not lead the team sandbox any more; ask again', NOT_LEADER_HEADER);
  else void follow(replica, req, res);
}

/** Waits for the lock, then leads; after a step-down, waits again. */
async function elect(replica: ReplicaState): Promise<void> {
  let client: Client;
  try {
    client = await awaitLeadership(replica.store, {
      stopped: () => replica.stopped,
      onWaiting: (c) => (replica.waitingClient = c),
      onRetry: (error) =>
        replica.tell({ event: 'waiting', reason: `database unreachable: ${(error as Error).message}` }),
    });
  } catch {
    return; // stopping
  } finally {
    replica.waitingClient = undefined;
  }
  try {
    await lead(replica, client);
  } catch (error) {
    await client.end().catch(() => undefined);
    if (error instanceof ConfigError) return replica.onFatal(error);
    replica.tell({ event: 'stepped-down', reason: `could not take over: ${(error as Error).message}` });
    if (!replica.stopped) setTimeout(() => void elect(replica), 1000);
  }
}

/** Holding the lock: the sandbox read from the database, this replica named the leader, and every request answered. */
async function lead(replica: ReplicaState, client: Client): Promise<void> {
  const started = monotonicNow();
  const stepDownOnError = (error: unknown) =>
    void stepDown(replica, `the database connection failed: ${String(error)}`);
  client.on('error', stepDownOnError);
  client.on('end', () => stepDownOnError('closed'));
  const sandbox = await createSandbox(
    { ...replica.options, log: replica.options.log ?? 'pretty' },
    {
      port: replica.port,
      webhooksAfterListen: true,
      team: { client, onFailure: (error) => void stepDown(replica, `a commit failed: ${String(error)}`) },
    },
  );
  if (replica.stopped) {
    await sandbox.close();
    await client.end();
    return;
  }
  sandbox.serveAt(replica.advertised);
  try {
    await writeMeta(client, 'leader', replica.advertised);
  } catch (error) {
    await sandbox.services.store.abandon();
    await sandbox.close().catch(() => undefined);
    throw error;
  }
  const own = leadership(replica, client, sandbox);
  replica.leadership = own;
  replica.knownLeader = replica.advertised;
  const loadedMs = Math.round(monotonicNow() - started);
  replica.tell({ event: 'leading', loadedMs, loaded: sandbox.loadedFromFile, sandbox });
  replica.markReady();
}

/** The leader's way of answering: each answer leaves once what its request changed is committed. */
function leadership(replica: ReplicaState, client: Client, sandbox: Sandbox): Leadership {
  const own: Leadership = {
    client,
    sandbox,
    serve: getRequestListener(async (request, env) => {
      if (!(await alive(replica, own)))
        return unavailableResponse('The team sandbox lost its database; ask again shortly');
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
    ping: setInterval(() => void alive(replica, own, true), PING_MS),
  };
  own.ping.unref();
  return own;
}

/** Whether the leader still has its database: asked when it has not heard from it lately (or `force`). */
async function alive(replica: ReplicaState, own: Leadership, force = false): Promise<boolean> {
  if (replica.leadership !== own) return false;
  if (!force && monotonicNow() - own.lastHeard < LIVENESS_MS) return true;
  try {
    await withTimeout(own.client.query('SELECT 1'), LIVENESS_MS);
    own.lastHeard = monotonicNow();
    return true;
  } catch (error) {
    void stepDown(replica, `the database did not answer: ${String(error)}`);
    return false;
  }
}

async function stepDown(replica: ReplicaState, reason: string): Promise<void> {
  const own = replica.leadership;
  if (!own) return;
  replica.leadership = undefined;
  clearInterval(own.ping);
  replica.tell({ event: 'stepped-down', reason });
  // What is not committed was never acknowledged: let it go, and the timers and deliveries with it.
  await own.sandbox.services.store.abandon();
  await own.sandbox.close().catch(() => undefined);
  await own.client.end().catch(() => undefined);
  if (!replica.stopped) setTimeout(() => void elect(replica), 200);
}

/** A request to a replica that does not lead: to the leader, as soon as there is one. */
async function follow(replica: ReplicaState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const deadline = monotonicNow() + FOLLOW_WAIT_MS;
  for (;;) {
    if (replica.leadership) return void replica.leadership.serve(req, res);
    const leader = await leaderAddress(replica);
    if (leader && leader !== replica.advertised) {
      const outcome = await forward(req, res, new URL(leader), replica.agent);
      if (outcome === 'answered') return;
      replica.knownLeader = undefined;
      if (outcome === 'stale') return;
    } else replica.knownLeader = undefined;
    if (replica.stopped || monotonicNow() > deadline)
      return unavailable(res, 'The team sandbox has no leader right now (one is taking over); ask again shortly');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The leader's address as the database names it (kept until forwarding to it fails). */
async function leaderAddress(replica: ReplicaState): Promise<string | undefined> {
  if (replica.knownLeader) return replica.knownLeader;
  try {
    const leader = await readMeta(replica.meta, 'leader');
    if (leader && leader !== replica.knownLeader && leader !== replica.advertised)
      replica.tell({ event: 'following', leader });
    replica.knownLeader = leader;
    return leader;
  } catch {
    replica.meta.end().catch(() => undefined);
    replica.meta = await connect(replica.store, 'replica').catch(() => replica.meta);
    return undefined;
  }
}

/** A follower is ready once it knows a leader. */
async function markReadyOnceLed(replica: ReplicaState): Promise<void> {
  while (!replica.stopped) {
    if (replica.leadership || (await leaderAddress(replica).catch(() => undefined))) return replica.markReady();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function closeReplica(replica: ReplicaState, server: Server): Promise<void> {
  replica.stopped = true;
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  const own = replica.leadership;
  replica.leadership = undefined;
  if (own) {
    clearInterval(own.ping);
    // Everything pending is committed, then the lock goes with the connection: another replica takes over.
    await own.sandbox.close();
    await own.client.end().catch(() => undefined);
  }
  await replica.waitingClient?.end().catch(() => undefined);
  replica.agent.destroy();
  await replica.meta.end().catch(() => undefined);
}

/** The address other replicas reach a replica at: for a wildcard bind, the first outside IPv4 address. */
function advertisedHost(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return urlHost(host);
  for (const list of Object.values(networkInterfaces()))
    for (const address of list ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  return '127.0.0.1';
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
