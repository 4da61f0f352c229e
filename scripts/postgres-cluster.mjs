/**
 * A PostgreSQL cluster of its own for the team-mode tests and benchmarks (docs/team-sandbox.md, "Tests"): Debian's
 * `postgresql` binaries, a cluster made in a temporary folder and started on a free loopback port (and a unix socket
 * in that folder), stopped and removed by `stop()`. initdb refuses to run as root, so as root the cluster belongs to
 * the `postgres` user the Debian package makes (or `nobody`). The test set-up (test/support/global-setup.ts) and
 * bench/team.mjs start one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';

/** The folder of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<n>/bin, else undefined. */
export function postgresBinaries() {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/** The user the cluster runs as: ourselves, unless we are root (initdb refuses root). */
function clusterUser() {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (id.status === 0 && gid.status === 0) return { name, uid: Number(id.stdout), gid: Number(gid.stdout) };
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run the PostgreSQL cluster');
}

/**
 * Makes and starts a cluster; resolves with its URL (`postgres://esign@127.0.0.1:<port>/postgres`: a superuser, no
 * password, trust on loopback) and `stop()`, which stops it and removes its folder.
 * @param {string} bin the folder of initdb and pg_ctl
 * @param {{ fsync?: boolean }} [options] fsync off by default: tests kill replicas, never the database
 * @returns {Promise<{ url: string, stop(): void }>}
 */
export async function startCluster(bin, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'esign-pg-'));
  const user = clusterUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const run = (tool, args) => {
    const command = user ? 'runuser' : join(bin, tool);
    const argv = user ? ['-u', user.name, '--', join(bin, tool), ...args] : args;
    execFileSync(command, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const data = join(dir, 'data');
  try {
    run('initdb', ['-D', data, '-U', 'esign', '--auth=trust', '-E', 'UTF8', '--no-locale']);
    const port = await freePort();
    const fsync = options.fsync === true ? 'on' : 'off';
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=${fsync} -c max_connections=300`;
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
