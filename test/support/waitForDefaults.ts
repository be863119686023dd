/**
 * vitest setupFile: `vi.waitFor` and `vi.waitUntil` wait 10 s unless a test says otherwise.
 * Their own default is 1 s, a timing margin that a loaded two-core CI machine — browser suites,
 * child gateways and worker threads starting beside each other — overruns now and then; a
 * condition that holds is still seen at the first 50 ms poll after it comes true.
 */
import { vi } from 'vitest';

const DEFAULT_TIMEOUT_MS = 10_000;

type WaitOptions = Parameters<typeof vi.waitFor>[1];

function withDefaultTimeout(options: WaitOptions): WaitOptions {
  if (typeof options === 'number') return options;
  return { timeout: DEFAULT_TIMEOUT_MS, ...options };
}

const { waitFor, waitUntil } = vi;
vi.waitFor = (callback, options) => waitFor(callback, withDefaultTimeout(options));
vi.waitUntil = (callback, options) => waitUntil(callback, withDefaultTimeout(options));
