/**
 * A PostgreSQL cluster of the test run's own (docs/team-sandbox.md, "Tests"): Debian's `postgresql` binaries, a
 * cluster made in a temporary folder and started on a free loopback port (and a unix socket in that folder), stopped
 * and removed when the run ends. initdb refuses to run as root, so as root the cluster belongs to the `postgres`
 * user the Debian package makes (or `nobody`). The team-mode tests make a database of their own in it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface Cluster {
  /** `postgres://esign@127.0.0.1:<port>/postgres`: superuser, no password (trust on loopback). */
  url: string;
  stop(): void;
}

/** The folder of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<n>/bin, else undefined. */
export function postgresBinaries(): string | undefined {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The user the cluster runs as: ourselves, unless we are root (initdb refuses root). */
function clusterUser(): { name: string; uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (id.status === 0 && gid.status === 0) return { name, uid: Number(id.stdout), gid: Number(gid.stdout) };
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run the test cluster');
}

export async function startCluster(bin: string): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-pg-'));
  const user = clusterUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const run = (tool: string, args: string[]) => {
    const command = user ? 'runuser' : join(bin, tool);
    const argv = user ? ['-u', user.name, '--', join(bin, tool), ...args] : args;
    execFileSync(command, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const data = join(dir, 'data');
  try {
    run('initdb', ['-D', data, '-U', 'esign', '--auth=trust', '-E', 'UTF8', '--no-locale']);
    const port = await freePort();
    // fsync off: the tests kill sandbox replicas, never the database; durability of the database is PostgreSQL's.
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`;
    run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    return {
      url: `postgres://esign@127.0.0.1:${port}/postgres`,
      stop() {
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
