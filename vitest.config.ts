import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // Stops at once when socat or Chromium is missing, then builds the React UI once (only when
    // stale) before the browser tests drive it.
    globalSetup: ['test/support/requireTools.ts', 'test/support/buildUi.ts'],
    setupFiles: ['test/support/waitForDefaults.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores here and in CI: pty- and browser-backed suites contend for them.
    maxWorkers: 2,
  },
});
