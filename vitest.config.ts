import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // Stops at once when socat or Chromium is missing, then builds the React UI once (only when
    // stale) before the browser tests drive it.
    globalSetup: ['test/support/requireTools.ts', 'test/support/buildUi.ts'],
    setupFiles: ['test/support/waitForDefaults.ts'],
    // Safety nets, not paces: a test that holds finishes as soon as it does. Browser steps give up
    // first (test/support/browser.ts) so that a failure names what it waited for.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores here and in CI: pty- and browser-backed suites contend for them.
    maxWorkers: 2,
  },
});
