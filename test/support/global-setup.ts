/**
 * Runs once before the suite (vitest.config.ts `globalSetup`), so test files running side by side share what is
 * costly to start:
 * - dist/ is built once, up front, if it is older than the sources: the CLI, package and docs tests run the
 *   built code, and files that built it themselves would race each other;
 * - one Chromium is launched as a server; browser test files connect to it (test/browser/browser.ts) instead of
 *   each launching its own. Without Chromium the browser tests fail under CI=true (CI must run them) and are
 *   skipped elsewhere, with a line saying so at the start of the run.
 */
import { existsSync } from 'node:fs';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../browser/browser.js';
import { ensureBuilt } from './cli-process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared Chromium listens ('' when the browser tests launch their own or are skipped). */
    chromiumEndpoint: string;
    /** Why the browser tests are skipped ('' when they run). */
    browserSkip: string;
  }
}

let server: BrowserServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  ensureBuilt();
  project.provide('chromiumEndpoint', '');
  project.provide('browserSkip', '');
  if (!existsSync(CHROMIUM_PATH)) {
    const why = `Chromium is not at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
    if (process.env.CI === 'true' || process.env.CI === '1')
      throw new Error(`${why}: CI must run the browser tests (test/browser), so the run stops here.`);
    console.warn(`\n  !! BROWSER TESTS SKIPPED: ${why}. test/browser/* will show as skipped.\n`);
    project.provide('browserSkip', why);
    return;
  }
  server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
  project.provide('chromiumEndpoint', server.wsEndpoint());
}

export async function teardown(): Promise<void> {
  await server?.close();
}
