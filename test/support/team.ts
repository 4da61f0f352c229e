/**
 * Team-mode tests (docs/team-sandbox.md): a database of each test's own in the run's PostgreSQL cluster
 * (scripts/postgres-cluster.mjs, started by the global setup), and replicas: the real CLI with `--store`, each in its own
 * process, so a test can `kill -9` one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { CLI, ensureBuilt } from './cli-process.js';

export interface ReplicaProcess {
  child: ChildProcess;
  /** Where it listens. */
  url: string;
  output(): string;
  exited: Promise<number | null>;
  /** Resolves once it leads (its output says so). */
  leading(): Promise<void>;
  /** kill -9. */
  kill(): Promise<void>;
}

export interface TeamWorld {
  /** The database of this test. */
  store(): string;
  /**
   * Starts a replica on this test's database and resolves once it listens. With `env`, the store and everything else
   * come from the variables given (the store's URL is still this test's database when they name none).
   */
  replica(args?: string[], env?: Record<string, string>): Promise<ReplicaProcess>;
  /** SQL on this test's database. */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
}

/**
 * Registers the hooks of a team-mode test file: each test gets a fresh database, and every replica it started is
 * killed and the database dropped after it. Skipped (never in CI) without PostgreSQL.
 */
export function useTeam(): TeamWorld {
  const skip = inject('postgresSkip');
  const cluster = inject('postgresUrl');
  let database = '';
  const running: ReplicaProcess[] = [];
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(async (context) => {
    if (skip) return context.skip(`team-mode test skipped: ${skip}`);
    database = `esign_t_${randomBytes(6).toString('hex')}`;
    await onCluster(cluster, (c) => c.query(`CREATE DATABASE ${database}`));
  });
  afterEach(async () => {
    for (const r of running.splice(0)) await r.kill();
    if (database) await onCluster(cluster, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    database = '';
  });
  const store = () => {
    const url = new URL(cluster);
    url.pathname = `/${database}`;
    return url.toString();
  };
  return {
    store,
    async replica(args = [], env) {
      const r = await startReplica(store(), args, env);
      running.push(r);
      return r;
    },
    async sql(text, values) {
      const client = new Client({ connectionString: store() });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
  };
}

async function onCluster(url: string, work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

export function startReplica(
  store: string,
  args: string[] = [],
  env?: Record<string, string>,
): Promise<ReplicaProcess> {
  const argv = env ? [CLI, '--quiet', ...args] : [CLI, '--store', store, '--port', '0', '--quiet', ...args];
  const child = spawn(process.execPath, argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env ? { env: { PATH: process.env.PATH ?? '', ESIGN_SANDBOX_STORE: store, ...env } } : {}),
  });
  let output = '';
  const waiters = new Set<() => void>();
  const hear = (chunk: Buffer) => {
    output += chunk.toString();
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', hear);
  child.stderr!.on('data', hear);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Resolves once `test` holds of the output (checked on each chunk); rejects if the process exits first. */
  const until = (test: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test()) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
      void exited.then((code) => {
        if (waiters.delete(check)) reject(new Error(`replica exited with ${code}:\n${output}`));
      });
    });
  return until(() => /team replica listening on http:\/\/\S+/.test(output)).then(() => ({
    child,
    url: /team replica listening on (http:\/\/\S+)/.exec(output)![1]!,
    output: () => output,
    exited,
    leading: () => until(() => /\n {2}leading:[^\n]*\n(?![\s\S]*stepped down)/.test(output)),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  }));
}
