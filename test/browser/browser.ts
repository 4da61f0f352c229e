/**
 * Real-browser tests: the system's Chromium (Debian's `chromium` package, /usr/bin/chromium) driven by
 * playwright-core. Playwright's own browser download is not used. `useBrowser()` launches one browser for a test
 * file, gives each test fresh contexts (no cookies or cache shared between tests) and closes everything after
 * the file. The suite's global setup (test/support/global-setup.ts) starts one Chromium that every browser test
 * file connects to; run alone (no global setup), a file launches its own. A missing Chromium fails each test with
 * how to install it, except in a local run of the whole suite, where the global setup says at the start that the
 * browser tests are skipped (never under CI=true).
 */
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';

/** The Chromium the tests drive; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags that make Chromium work on a closed network and in a container: without the background-networking ones
 * its own connections (updates, sync, field trials) are refused and its requests to the test server with them.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  /** A page in a context of its own, closed after the test. */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
}

/** Registers the hooks of a browser test file: one Chromium for the file, fresh contexts per test. */
export function useBrowser(): BrowserSession {
  let browser: Browser | undefined;
  // Why Chromium did not start. Each test that asks for a page fails with it: a failing beforeAll would only
  // mark the tests skipped, and browser tests must never look skipped.
  let failure: Error | undefined;
  const open: BrowserContext[] = [];
  const skip = inject('browserSkip');
  beforeEach((context) => {
    if (skip) context.skip(`browser test skipped: ${skip}`);
  });
  beforeAll(async () => {
    if (skip) return;
    const shared = inject('chromiumEndpoint');
    if (shared) {
      browser = await chromium.connect(shared, { timeout: 30_000 });
      return;
    }
    if (!existsSync(CHROMIUM_PATH)) {
      failure = new Error(
        `The browser tests need Chromium at ${CHROMIUM_PATH} and it is not there. Install it with ` +
          '`apt-get install chromium` (Debian/Ubuntu, as root; .ci/run does this in CI), or point CHROMIUM_PATH at a Chromium binary.',
      );
      return;
    }
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
    } catch (error) {
      failure = new Error(`Chromium at ${CHROMIUM_PATH} did not start: ${(error as Error).message}`);
    }
  }, 40_000);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await Promise.all(open.splice(0).map((context) => context.close()));
    await browser?.close();
  });
  return {
    async newPage(options = {}) {
      if (!browser) throw failure ?? new Error('Chromium did not start');
      const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
      open.push(context);
      return context.newPage();
    },
  };
}

/** What a page did on the network and in its scripts, recorded from the moment of the call. */
export interface PageRecord {
  /** Every request the page (and its frames and workers) made, as full URLs, in order. */
  requests: string[];
  /** Uncaught errors thrown by the page's scripts. */
  errors: string[];
  /** The recorded requests that went anywhere but `origin` (data: and blob: URLs never leave the page). */
  outside(origin: string): string[];
}

export function recordPage(page: Page): PageRecord {
  const record: PageRecord = {
    requests: [],
    errors: [],
    outside: (origin) => record.requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin),
  };
  page.context().on('request', (request) => record.requests.push(request.url()));
  page.on('pageerror', (error) => record.errors.push(error.message));
  return record;
}
