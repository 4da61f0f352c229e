/**
 * `esign-sandbox/testcontainers` for real (docs/ci.md, "Testcontainers"): the image built from the Dockerfile on
 * the stand-in base (scripts/podman.mjs), served by podman's Docker-compatible API (`podman system service` on a
 * socket of this run, DOCKER_HOST pointing at it), Ryuk off (TESTCONTAINERS_RYUK_DISABLED: its image cannot be
 * pulled here). Starts a sandbox with a scenario file, fixtures, a frozen clock and an extra variable, drives it
 * with the credentials and the control client `start()` gives, has it deliver a signed webhook to a receiver on
 * this machine through `host.containers.internal` (docs/ci.md, "Webhooks into the job"), runs the Python recipe
 * (examples/python) against it the same way, and stops it.
 * Locally without podman (or not as root) it skips saying why; in CI (CI=true) it never skips.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE, PODMAN, ensureImage, podman, unavailable } from '../../scripts/podman.mjs';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { ROOT } from '../support/doc-blocks.js';
import { PYTHON, pythonUnavailable } from '../support/python.js';

const why = unavailable();
if (why && process.env.CI === 'true') throw new Error(`the Testcontainers test must run in CI: ${why}`);
if (why) console.log(`test/container/testcontainers skipped: ${why}`);

const noPython = pythonUnavailable();
if (noPython && process.env.CI === 'true') throw new Error(`the Python recipe must run in CI: ${noPython}`);
const run = promisify(execFile);
const id = randomBytes(4).toString('hex');
let work: string;
let service: ChildProcess | undefined;

/** Podman's Docker-compatible API on a socket of this run, with the storage and flags the other tests use. */
async function startPodmanService(socket: string): Promise<ChildProcess> {
  const child = spawn('podman', [...PODMAN, 'system', 'service', '--time=0', `unix://${socket}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  // As long as it takes, while the service runs: the test's time-out bounds it.
  while (!existsSync(socket) && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(socket)) throw new Error(`podman system service did not start:\n${stderr}`);
  return child;
}

describe.skipIf(why !== undefined)('esign-sandbox/testcontainers', () => {
  beforeAll(async () => {
    ensureImage();
    work = mkdtempSync(join(tmpdir(), 'esign-testcontainers-'));
    const socket = join(work, 'podman.sock');
    service = await startPodmanService(socket);
    // What a user sets to run Testcontainers on podman where Ryuk's image cannot be pulled (docs/ci.md).
    process.env.DOCKER_HOST = `unix://${socket}`;
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  }, 900_000);

  afterAll(async () => {
    if (service && service.exitCode === null) {
      const exited = new Promise((done) => service!.once('exit', done));
      service.kill('SIGTERM');
      await exited;
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('starts the image with a scenario, fixtures, a frozen clock and variables, and hands back what tests need', async () => {
    const { EsignSandboxContainer } = await import('../../src/testcontainers.js');
    const fixtures = join(work, 'team.yaml');
    writeFileSync(
      fixtures,
      'platforms:\n  - name: Team platform\n    apiKey: teamKey\n    secret: teamSecret\n    clients:\n      - clientKey: teamClient\n        fullname: Team Client\n        email: team@example.com\n',
    );
    const scenario = join(work, 'one-contract.yaml');
    writeFileSync(
      scenario,
      'name: one-contract\ndata:\n  clients:\n    - clientKey: teamClient\n      contracts:\n        - name: Scenario agreement\n          value: <p>Terms</p>\n',
    );
    const receiver = await createWebhookReceiver({ host: '0.0.0.0', rejectUnverified: true });
    const sandbox = await new EsignSandboxContainer(IMAGE)
      .withFixtures(fixtures)
      .withScenario(scenario)
      .withClock('frozen', '2026-01-01T00:00:00Z')
      .withEnv({ ESIGN_SANDBOX_SEED: '7' })
      // podman as root on a CI machine needs explicit limits (scripts/podman.mjs LIMITS): any GenericContainer call works.
      .withUlimits({ nofile: { soft: 1024, hard: 1024 }, nproc: { soft: 1000, hard: 1000 } })
      .withName(`esign-tc-${id}`)
      .start();
    try {
      expect(sandbox.url).toMatch(/^http:\/\/[^:]+:\d+$/);
      expect({ apiKey: sandbox.apiKey, secret: sandbox.secret, clientKey: sandbox.clientKey }).toEqual({
        apiKey: 'teamKey',
        secret: 'teamSecret',
        clientKey: 'teamClient',
      });
      const health = await sandbox.control.health();
      expect(health).toMatchObject({ status: 'ok', clock: 'frozen', now: '2026-01-01T00:00:00.000Z' });
      expect(JSON.stringify(await sandbox.control.scenarios.list())).toContain('one-contract');

      // Webhooks into the job: the container reaches this machine as host.containers.internal (podman's name;
      // Docker's is host.docker.internal with --add-host host.docker.internal:host-gateway).
      const api = async (path: string, data: object) =>
        (await (
          await fetch(`${sandbox.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey },
            body: JSON.stringify({ data: { clientKey: sandbox.clientKey, ...data } }),
          })
        ).json()) as Record<string, any>;
      const hook = await api('/api/webhook', {
        action: 'create',
        webhooks: [{ url: `http://host.containers.internal:${receiver.port}/webhooks`, created: true }],
      });
      expect(hook.code).toBe('201');
      receiver.useSecret(hook.webhooks[0].secret);
      const created = await api('/api/contract', {
        action: 'create',
        contract: { name: 'Testcontainers agreement', value: '<p>Terms</p>' },
      });
      expect(created.contract.contractKey).toEqual(expect.any(String));
      const [delivery] = await receiver.waitFor(1);
      expect(delivery!.verified).toBe(true);
      expect(JSON.parse(delivery!.body).type).toBe('contract.created');

      // The Python recipe (docs/python.md) against the container: its receiver on this machine, reached the same way.
      if (!noPython) {
        const pytest = await run(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
          cwd: join(ROOT, 'examples', 'python'),
          env: {
            ...process.env,
            ESIGN_SANDBOX_URL: sandbox.url,
            ESIGN_SANDBOX_WEBHOOK_HOST: '0.0.0.0',
            ESIGN_SANDBOX_WEBHOOK_URL_HOST: 'host.containers.internal',
          },
          timeout: 120_000,
        }).catch((error: { stdout: string; stderr: string }) => {
          throw new Error(`pytest against the container failed:\n${error.stdout}\n${error.stderr}`);
        });
        expect(pytest.stdout).toMatch(/\b8 passed\b/);
      }
    } finally {
      await receiver.close();
      await sandbox.stop();
    }
    // Stopped means gone: Testcontainers removes the container (no Ryuk needed for that).
    expect(podman(['container', 'exists', `esign-tc-${id}`], { allowFailure: true }).status).not.toBe(0);
  }, 300_000);
});
