import { pollUntil } from '../../support/pollUntil.js';

/**
 * Polls a condition about a REAL child process or pty (not the gateway's logic, which runs on
 * its own clock in its own process) until it holds or the deadline passes.
 */
export function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  intervalMs = 20,
): Promise<void> {
  return pollUntil(condition, { limitMs: timeoutMs, intervalMs, what });
}
