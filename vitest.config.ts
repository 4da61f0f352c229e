import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Builds dist/ once and starts the one Chromium the browser tests share (test/support/global-setup.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Node's own undici as fetch's dispatcher in every worker, whatever file ran first in it (the file says why).
    setupFiles: ['test/support/node-fetch-first.ts'],
    // Many test files mostly wait (on child processes, Chromium, npm, sockets): two files at once keep both cores
    // busy where vitest's default (cores - 1: one file at a time on two cores) leaves them idle. Not more: the
    // soak, crash and wall-time tests need a core of their own to do their work in their time.
    maxWorkers: 2,
    // One module cache per worker for all the files it runs, instead of re-importing the sources (zod, hono,
    // pdf-lib, …) for every file: the in-process tests took 82 s of CPU isolated and 29 s shared (34 files, same
    // run). Safe because the sources keep no module-level state (docs/architecture.md) and no test mocks modules.
    isolate: false,
  },
});
