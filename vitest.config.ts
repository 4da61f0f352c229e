import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Builds dist/ once and starts the one Chromium the browser tests share (test/support/global-setup.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Most test files wait (on child processes, Chromium, npm, sockets) far more than they compute: four files at
    // once keep two cores busy, where vitest's default (cores - 1: one file at a time here) leaves them idle.
    maxWorkers: 4,
  },
});
