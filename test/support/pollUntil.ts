/**
 * Polls a condition about something REAL (a pty, a child process, a socket) until it holds or
 * the limit passes. Logic on a ManualClock is driven by advancing the clock instead.
 */
export async function pollUntil(
  condition: () => boolean | Promise<boolean>,
  options: { limitMs?: number; intervalMs?: number; what?: string } = {},
): Promise<void> {
  const { limitMs = 10_000, intervalMs = 20, what = 'the condition' } = options;
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
