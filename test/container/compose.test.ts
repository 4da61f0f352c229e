/**
 * compose.yaml (docs/ci.md "Docker Compose"), run the way compose would run it. There is no Docker engine here and
 * `podman compose` needs an external provider, so the test reads compose.yaml and starts the same containers by
 * hand with podman from the file's values: the `esign` service built from the Dockerfile (scripts/podman.mjs, on
 * the stand-in base), its environment and volume; the file's health check run until it passes (depends_on:
 * service_healthy); then the `app` service with its image, environment, volume and command. Host networking
 * (podman's defaults fail here), so `esign` does not resolve by itself: the app gets `--add-host esign:127.0.0.1`.
 * On the host network a container's port is a host port, and the file's 4010 may be taken (the quick start's
 * sandbox runs there while the tests run): the test publishes the service on a free port instead, as compose's
 * `ports:` mapping would, by rewriting `:4010` in the file's values to that port. Same rule as
 * container.test.ts: in CI (CI=true) it never skips.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  BASE_IMAGE,
  IMAGE,
  LIMITS,
  ROOT,
  containerRunning,
  ensureImage,
  podman,
  unavailable,
} from '../../scripts/podman.mjs';
import { freePort, portIsFree } from '../support/ci-kit.js';

const why = unavailable();
if (why && process.env.CI === 'true') throw new Error(`the compose test must run in CI: ${why}`);
if (why) console.log(`test/container/compose skipped: ${why}`);

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  command?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const { esign, app } = compose.services as { esign: Service; app: Service };

const id = randomBytes(4).toString('hex');
const names: string[] = [];
const volumes: string[] = [];

/** The service's port in compose.yaml (`ports: ["4010:4010"]`, its container side). */
const FILE_PORT = 4010;
/** The host port this run publishes it on instead (set before the containers start). */
let port = 0;
/** A value of the file with the service's port moved to this run's: `http://esign:4010` → `http://esign:<port>`. */
const published = (value: string) => value.replaceAll(`:${FILE_PORT}`, `:${port}`);

/** `-e` and `-v` flags from a service: named volumes get this run's own name, paths are the repository's. */
function flags(service: Service): string[] {
  const env = Object.entries(service.environment ?? {}).flatMap(([k, v]) => ['-e', `${k}=${published(v)}`]);
  const vols = (service.volumes ?? []).flatMap((v) => {
    const [source, ...rest] = v.split(':');
    if (source!.startsWith('.') || isAbsolute(source!)) return ['-v', [join(ROOT, source!), ...rest].join(':')];
    const name = `${source}-${id}`;
    volumes.push(name);
    return ['-v', [name, ...rest].join(':')];
  });
  return [...env, ...vols];
}

describe.skipIf(why !== undefined)('compose.yaml', () => {
  beforeAll(() => {
    ensureImage();
  }, 900_000);
  afterAll(() => {
    for (const name of names) podman(['rm', '-f', name], { allowFailure: true });
    for (const name of volumes) podman(['volume', 'rm', '-f', name], { allowFailure: true });
  });

  it('has the sandbox, healthy, beside an app that creates a contract in it', async () => {
    expect(esign.build).toBe('.');
    expect(esign.ports).toEqual(['4010:4010']);
    expect(esign.environment?.ESIGN_SANDBOX_PUBLIC_URL).toBe('http://esign:4010');
    expect(app.depends_on).toEqual({ esign: { condition: 'service_healthy' } });
    expect(app.environment?.CONTRACT_API_URL).toBe('http://esign:4010');
    // The app's image is the Dockerfile's base: here, the stand-in under that name.
    expect(`docker.io/library/${app.image}`).toBe(BASE_IMAGE);

    expect(esign.healthcheck!.test.join(' ')).toContain(`127.0.0.1:${FILE_PORT}/`);
    port = await freePort();

    const sandbox = `esign-compose-${id}`;
    names.push(sandbox);
    // The image listens on ESIGN_SANDBOX_PORT (4010 by default): here the published port.
    podman(['run', '-d', '--name', sandbox, ...LIMITS, '-e', `ESIGN_SANDBOX_PORT=${port}`, ...flags(esign), IMAGE]);

    // depends_on: service_healthy: the file's own health check, until it passes.
    const [kind, ...check] = esign.healthcheck!.test.map(published);
    expect(kind).toBe('CMD');
    let probe = podman(['exec', sandbox, ...check], { allowFailure: true });
    // As long as it takes, while the container runs: the test's time-out bounds it, not a guess at the machine's speed.
    while (probe.status !== 0 && containerRunning(sandbox)) {
      await new Promise((r) => setTimeout(r, 200));
      probe = podman(['exec', sandbox, ...check], { allowFailure: true });
    }
    if (probe.status !== 0) {
      const state = podman(['inspect', '--format', '{{.State.Status}} (exit {{.State.ExitCode}})', sandbox], {
        allowFailure: true,
      });
      const logs = podman(['logs', sandbox], { allowFailure: true });
      throw new Error(
        [
          `esign never became healthy on port ${port} (host network; the file's ${FILE_PORT} published there).`,
          `port ${port} ${(await portIsFree(port)) ? 'is free: nothing listens on it' : 'is held by a process'}`,
          `container: ${state.stdout.trim() || state.stderr.trim()}`,
          `last health check (${check.join(' ')}) exited ${probe.status}: ${probe.stdout}${probe.stderr}`,
          `podman logs:\n${logs.stdout}${logs.stderr}`,
        ].join('\n'),
      );
    }

    const appName = `esign-compose-app-${id}`;
    names.push(appName);
    const ran = podman(
      [
        'run',
        '--name',
        appName,
        ...LIMITS,
        '--add-host',
        'esign:127.0.0.1',
        ...flags(app),
        BASE_IMAGE,
        ...app.command!,
      ],
      { allowFailure: true },
    );
    expect(ran.status, `${ran.stdout}\n${ran.stderr}`).toBe(0);
    const key = /contract created: (\S+)/.exec(ran.stdout)?.[1];
    expect(key).toBeDefined();

    const got = await fetch(`http://127.0.0.1:${port}/__sandbox/contracts/${key}`);
    expect(got.status).toBe(200);
    expect(JSON.stringify(await got.json())).toContain('Compose agreement');
  }, 120_000);
});
