/**
 * Podman as the container tests and the bench run it (docs/ci.md "Building the image without a registry"): the one
 * place that knows the invocations that work on a CI machine as root, where the defaults fail on rlimits and
 * cgroups: runc, cgroupfs, file events, host network, explicit ulimits; and a storage of its own, so the stand-in
 * base (below) never shadows a real `node` image in the machine's podman storage.
 *
 * No registry is reachable there, so the Dockerfile's base (NODE_IMAGE, default node:22-bookworm-slim) is built
 * locally: Debian bookworm (mmdebstrap, minbase) with the machine's own Node and npm copied in where the official
 * image has them (/usr/local), and the official image's `node` user (uid 1000). Cached by the Node version.
 *
 *   node scripts/podman.mjs base     # the stand-in base
 *   node scripts/podman.mjs build    # base, then the Dockerfile as esign-sandbox:local
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BASE_IMAGE = 'docker.io/library/node:22-bookworm-slim';
export const IMAGE = 'localhost/esign-sandbox:local';
const STORE = process.env.ESIGN_PODMAN_ROOT ?? '/var/tmp/esign-sandbox-podman';

/** Global flags of every podman call. */
export const PODMAN = [
  '--root',
  join(STORE, 'storage'),
  '--runroot',
  join(STORE, 'run'),
  '--storage-driver',
  'overlay',
  '--cgroup-manager',
  'cgroupfs',
  '--events-backend',
  'file',
  '--runtime',
  'runc',
];
/** Flags of `podman build` and `podman run`. */
export const LIMITS = ['--network', 'host', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1000:1000'];

/** Why podman cannot be used here, or undefined when it can. */
export function unavailable() {
  for (const tool of ['podman', 'runc', 'mmdebstrap']) {
    if (spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0) return `${tool} is not installed`;
  }
  if (process.getuid?.() !== 0) return 'podman tests run as root (as CI does)';
  return undefined;
}

/** Runs podman with the flags above; throws with its output when it fails. */
export function podman(args, options = {}) {
  const result = spawnSync('podman', [...PODMAN, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  if (result.status !== 0 && !options.allowFailure)
    throw new Error(`podman ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** Whether a container is running: a loop that waits for it to become healthy stops when it stopped instead. */
export function containerRunning(name) {
  return podman(['inspect', '--format', '{{.State.Running}}', name], { allowFailure: true }).stdout.trim() === 'true';
}

/** The stand-in base, built unless one with this Node version is already there. */
export function buildBase() {
  const label = 'esign-sandbox.stand-in.node';
  const have = podman(['image', 'inspect', '--format', `{{index .Config.Labels "${label}"}}`, BASE_IMAGE], {
    allowFailure: true,
  });
  if (have.status === 0 && have.stdout.trim() === process.version) return { cached: true };
  mkdirSync(STORE, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'esign-base-'));
  try {
    const tar = join(work, 'base.tar');
    const npm = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
    const debstrap = spawnSync(
      'mmdebstrap',
      [
        '--variant=minbase',
        '--quiet',
        '--dpkgopt=path-exclude=/usr/share/{doc,man,info,locale}/*',
        '--customize-hook=mkdir -p "$1/usr/local/bin" "$1/usr/local/lib/node_modules"',
        `--customize-hook=copy-in ${process.execPath} /usr/local/bin`,
        `--customize-hook=copy-in ${npm} /usr/local/lib/node_modules`,
        '--customize-hook=chroot "$1" sh -c "ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node"',
        '--customize-hook=rm -rf "$1/var/lib/apt/lists"/* "$1/var/cache/apt"/*',
        'bookworm',
        tar,
      ],
      { encoding: 'utf8' },
    );
    if (debstrap.status !== 0) throw new Error(`mmdebstrap failed:\n${debstrap.stderr}`);
    podman([
      'import',
      '--change',
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change',
      `LABEL ${label}=${process.version}`,
      '--change',
      'CMD ["node"]',
      tar,
      BASE_IMAGE,
    ]);
    return { cached: false };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The machine's extra certificate authority (a CI network that inspects TLS), lent to the build's `npm ci` for
 * the build only: mounted, and named by the Dockerfile's NODE_EXTRA_CA_CERTS argument; never copied into the image.
 */
function buildTrust() {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  return ca && existsSync(ca)
    ? ['--volume', `${ca}:/run/esign-build-ca.crt:ro`, '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/esign-build-ca.crt']
    : [];
}

/** The real Dockerfile on the (stand-in) base. */
export function buildImage(tag = IMAGE) {
  podman([
    'build',
    ...LIMITS,
    ...buildTrust(),
    '--format',
    'docker',
    '--tag',
    tag,
    '--file',
    join(ROOT, 'Dockerfile'),
    ROOT,
  ]);
}

/**
 * The stand-in base, then the Dockerfile, for a test file: one build at a time (test files run in parallel), so
 * the first caller builds and the next finds every layer in podman's cache.
 */
export function ensureImage(tag = IMAGE) {
  mkdirSync(STORE, { recursive: true });
  const lock = join(STORE, 'build.lock');
  const wait = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is older than any build.
      if (i > 9000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(wait, 0, 0, 100);
    }
  }
  try {
    buildBase();
    buildImage(tag);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The image's size in bytes. */
export function imageSize(tag = IMAGE) {
  return Number(podman(['image', 'inspect', '--format', '{{.Size}}', tag]).stdout.trim());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const why = unavailable();
  if (why) {
    console.error(`podman: ${why}`);
    process.exit(1);
  }
  const what = process.argv[2];
  console.log(buildBase().cached ? `stand-in ${BASE_IMAGE}: cached` : `stand-in ${BASE_IMAGE}: built`);
  if (what === 'build') {
    buildImage();
    console.log(`${IMAGE}: ${(imageSize() / 1e6).toFixed(1)} MB`);
  }
}
