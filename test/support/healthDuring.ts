/**
 * The longest wait for `/health/live` while `work` runs, probing one request after the other:
 * how long a piece of work held the gateway's event loop, seen as a client sees it. The gateway
 * runs in the test's process, so nothing else answers for it meanwhile.
 */
export async function healthDuring<T>(
  baseUrl: string,
  work: Promise<T>,
): Promise<{ result: T; longestMs: number }> {
  let done = false;
  let longestMs = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      // A connection dropped while the loop was held counts as no answer at all.
      const answered = await fetch(`${baseUrl}/health/live`).then(
        (response) => response.ok,
        () => false,
      );
      longestMs = Math.max(longestMs, answered ? performance.now() - started : Number.POSITIVE_INFINITY);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const result = await work.finally(() => {
    done = true;
  });
  await probing;
  return { result, longestMs };
}
