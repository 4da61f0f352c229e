/**
 * A tenant per test, as a vitest fixture (docs/library.md, "A tenant per test"): each test gets a platform of its own
 * (its API key and secret, its own clock when asked) and the scoped control methods; after the test its world is
 * dropped: its scenarios unloaded, its faults removed, its records, deliveries, emails, timers and journal reset.
 * No import of vitest: the fixture is a plain function of the shape `test.extend` takes.
 *
 *   import { test as base } from 'vitest';
 *   const test = base.extend({ tenant: tenantFixture(sandbox, { clock: 'frozen' }) });
 *   test('expires tokens', async ({ tenant }) => { … tenant.apiKey … await tenant.clock.advance('31m'); });
 */
import type { NewPlatform, Platform, SandboxTenant } from '../control/sandbox-control.js';
import { assertReady } from './assertions.js';

/** What the fixture hands a test: the tenant's scoped control methods and its credentials. */
export type TestTenant = SandboxTenant & Pick<Platform, 'platformId' | 'secret'>;

export interface TenantFixtureOptions extends Omit<NewPlatform, 'apiKey' | 'secret'> {
  /**
   * After the test, fail it when the tenant's readiness report has an error finding (`'error'`) or a warning too
   * (`'warning'`), with the evidence (docs/readiness.md). Default: not checked.
   */
  ready?: 'error' | 'warning';
  /** Leave the tenant's world as the test left it (for a whole-run report at the end). Default: dropped. */
  keep?: boolean;
}

/** What the fixture needs of a sandbox: `startSandbox()` and `createControlClient()` both have it. */
export interface TenantSource {
  createPlatform(input?: NewPlatform): Promise<Platform>;
  tenant(apiKey: string): SandboxTenant;
}

type Use<T> = (value: T) => Promise<void>;

/** A vitest fixture: `base.extend({ tenant: tenantFixture(sandbox, options) })`. */
export function tenantFixture(
  sandbox: TenantSource,
  options: TenantFixtureOptions = {},
): (context: { task: { name: string } }, use: Use<TestTenant>) => Promise<void> {
  const { ready, keep, ...platform } = options;
  // vitest reads the first parameter's pattern to learn which fixtures this one needs: `task` is the test itself.
  return async ({ task }, use) => {
    const made = await sandbox.createPlatform({ name: task.name.slice(0, 200), ...platform });
    const tenant: TestTenant = { ...sandbox.tenant(made.apiKey), platformId: made.platformId, secret: made.secret };
    await use(tenant);
    let report: Awaited<ReturnType<TestTenant['report']>> | undefined;
    try {
      if (ready) {
        await tenant.settle();
        report = await tenant.report();
      }
    } finally {
      if (!keep) {
        await tenant.scenarios.unloadAll();
        await tenant.faults.clear();
        await tenant.webhooks.faults.clear();
        await tenant.reset();
      }
    }
    if (report) assertReady(report, { failOn: ready });
  };
}
