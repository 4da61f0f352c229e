/**
 * esign-sandbox as a Testcontainers module (docs/ci.md, "Testcontainers"): one sandbox container per test run,
 * started from your tests, on a free host port, and removed when they end.
 *
 *   import { EsignSandboxContainer } from 'esign-sandbox/testcontainers';
 *   const sandbox = await new EsignSandboxContainer('ghcr.io/<owner>/esign-sandbox:0.4.0')
 *     .withScenario('slow-signer')
 *     .withClock('frozen', '2026-01-01T00:00:00Z')
 *     .start();
 *   // sandbox.url, sandbox.apiKey, sandbox.secret, sandbox.clientKey; sandbox.control.clock.advance('31m')
 *   await sandbox.stop();
 *
 * `testcontainers` is an optional peer dependency: only this entry point imports it, so users of the CLI and of
 * the library install nothing more.
 */
import { basename, resolve } from 'node:path';
import { statSync } from 'node:fs';
import { AbstractStartedContainer, GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { type ControlClient, createControlClient } from './client/control-client.js';

/** The port the image's sandbox listens on (the Dockerfile's ESIGN_SANDBOX_PORT). */
export const SANDBOX_PORT = 4010;
/** The path that answers 200 once the sandbox is ready (also the image's HEALTHCHECK). */
export const HEALTH_PATH = '/__sandbox/health';

/** Where files handed to withScenario / withFixtures are copied inside the container. */
const SCENARIO_DIR = '/etc/esign-sandbox/scenarios';
const FIXTURES_DIR = '/etc/esign-sandbox/fixtures';

export class EsignSandboxContainer extends GenericContainer {
  private readonly scenarios: string[] = [];
  private readonly env: Record<string, string> = {};

  /** @param image the sandbox image, e.g. `ghcr.io/<owner>/esign-sandbox:0.4.0` or one you built (docs/ci.md). */
  constructor(image: string) {
    super(image);
    this.withExposedPorts(SANDBOX_PORT).withWaitStrategy(
      Wait.forHttp(HEALTH_PATH, SANDBOX_PORT).forStatusCode(200).withStartupTimeout(60_000),
    );
  }

  /**
   * Plays a scenario at start: a bundled name (`slow-signer`) or a YAML file on this machine, copied in.
   * Call it once per scenario.
   */
  withScenario(nameOrFile: string): this {
    if (isFile(nameOrFile)) {
      const target = `${SCENARIO_DIR}/${this.scenarios.length}-${basename(nameOrFile)}`;
      this.withCopyFilesToContainer([{ source: resolve(nameOrFile), target, mode: 0o644 }]);
      this.scenarios.push(target);
    } else {
      this.scenarios.push(nameOrFile);
    }
    return this;
  }

  /** Seeds the sandbox from your fixtures instead of the bundled ones: a YAML/JSON file or a folder of them. */
  withFixtures(fileOrFolder: string): this {
    const source = resolve(fileOrFolder);
    if (isFile(source)) {
      const target = `${FIXTURES_DIR}/${basename(source)}`;
      this.withCopyFilesToContainer([{ source, target, mode: 0o644 }]);
      this.env.ESIGN_SANDBOX_FIXTURES = target;
    } else {
      this.withCopyDirectoriesToContainer([{ source, target: FIXTURES_DIR, mode: 0o755 }]);
      this.env.ESIGN_SANDBOX_FIXTURES = FIXTURES_DIR;
    }
    return this;
  }

  /** The clock: `frozen` (moves only when told) or `real`, optionally starting at a given time (ISO 8601). */
  withClock(mode: 'real' | 'frozen', start?: string | Date): this {
    this.env.ESIGN_SANDBOX_CLOCK = mode;
    if (start !== undefined) this.env.ESIGN_SANDBOX_START = start instanceof Date ? start.toISOString() : String(start);
    return this;
  }

  /** Any option by its ESIGN_SANDBOX_* variable (README "Options"), e.g. `{ ESIGN_SANDBOX_SEED: '7' }`. */
  withEnv(variables: Record<string, string>): this {
    Object.assign(this.env, variables);
    return this;
  }

  override async start(): Promise<StartedEsignSandboxContainer> {
    if (this.scenarios.length) this.env.ESIGN_SANDBOX_SCENARIO = this.scenarios.join(',');
    this.withEnvironment(this.env);
    return StartedEsignSandboxContainer.connect(await super.start());
  }
}

export class StartedEsignSandboxContainer extends AbstractStartedContainer {
  private constructor(
    started: StartedTestContainer,
    /** Base URL on this machine, e.g. http://localhost:32771: the API under /api, the control API under /__sandbox. */
    readonly url: string,
    /** The control API's client (clock, recipients, emails, webhooks, reset), as `createControlClient(url)`. */
    readonly control: ControlClient,
    /** The default platform's credentials and its first client, as the fixtures seeded them. */
    readonly apiKey: string,
    readonly secret: string,
    readonly clientKey: string,
  ) {
    super(started);
  }

  /** Reads the credentials the container was seeded with (GET /__sandbox/state), so custom fixtures work too. */
  static async connect(started: StartedTestContainer): Promise<StartedEsignSandboxContainer> {
    const url = `http://${started.getHost()}:${started.getMappedPort(SANDBOX_PORT)}`;
    const control = createControlClient(url);
    const { store } = await control.snapshot();
    const platform = Object.values(store.platforms)[0];
    const client = Object.values(store.clients).find((c) => c.platformId === platform?.platformId);
    if (!platform) throw new Error(`the sandbox at ${url} has no platform: check its fixtures`);
    return new StartedEsignSandboxContainer(
      started,
      url,
      control,
      String(platform.apiKey),
      String(platform.secret),
      String(client?.clientKey ?? ''),
    );
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
