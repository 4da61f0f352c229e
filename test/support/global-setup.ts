/**
 * Runs once before the suite (vitest.config.ts `globalSetup`), so test files running side by side share what is
 * costly to start:
 * - dist/ is built once, up front, if it is older than the sources: the CLI, package and docs tests run the
 *   built code, and files that built it themselves would race each other;
 * - one Chromium is launched as a server; browser test files connect to it (test/browser/browser.ts) instead of
 *   each launching its own. Without Chromium the browser tests fail under CI=true (CI must run them) and are
 *   skipped elsewhere, with a line saying so at the start of the run;
 * - one PostgreSQL cluster is made and started in a temporary folder (scripts/postgres-cluster.mjs) for the team-mode tests
 *   (test/team), stopped and removed at the end; without Debian's postgresql, as with Chromium.
 */
import { existsSync } from 'node:fs';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../browser/browser.js';
import { ensureBuilt } from './cli-process.js';
import { postgresBinaries, startCluster } from '../../scripts/postgres-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared Chromium listens ('' when the browser tests launch their own or are skipped). */
    chromiumEndpoint: string;
    /** Why the browser tests are skipped ('' when they run). */
    browserSkip: string;
    /** The test cluster's URL ('' when the team-mode tests are skipped). */
    postgresUrl: string;
    /** Why the team-mode tests are skipped ('' when they run). */
    postgresSkip: string;
  }
}

let server: BrowserServer | undefined;
let cluster: { stop(): void } | undefined;
const ci = process.env.CI === 'true' || process.env.CI === '1';

export async function setup(project: TestProject): Promise<void> {
  ensureBuilt();
  project.provide('postgresUrl', '');
  project.provide('postgresSkip', '');
  const bin = postgresBinaries();
  if (!bin) {
    const why = 'PostgreSQL is not installed (apt-get install postgresql, or set PG_BIN to the folder of initdb)';
    if (ci) throw new Error(`${why}: CI must run the team-mode tests (test/team), so the run stops here.`);
    console.warn(`\n  !! TEAM-MODE TESTS SKIPPED: ${why}. test/team/* will show as skipped.\n`);
    project.provide('postgresSkip', why);
  } else {
    const started = await startCluster(bin);
    cluster = started;
    project.provide('postgresUrl', started.url);
  }
  project.provide('chromiumEndpoint', '');
  project.provide('browserSkip', '');
  if (!existsSync(CHROMIUM_PATH)) {
    const why = `Chromium is not at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
    if (ci) {
      cluster?.stop();
      throw new Error(`${why}: CI must run the browser tests (test/browser), so the run stops here.`);
    }
    console.warn(`\n  !! BROWSER TESTS SKIPPED: ${why}. test/browser/* will show as skipped.\n`);
    project.provide('browserSkip', why);
    return;
  }
  server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
  project.provide('chromiumEndpoint', server.wsEndpoint());
}

export async function teardown(): Promise<void> {
  await server?.close();
  cluster?.stop();
}
