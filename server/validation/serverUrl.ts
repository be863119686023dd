/**
 * Where the private server's device API lives (`gateway.cloud_url`, `--server-url`), e.g.
 * `https://sms.example.com/api/mobile/v1` as the Android app takes it. The device token and
 * every message travel over it, so plain http is refused except to this PC itself.
 * Returns why the URL is unfit, or undefined.
 */
export function serverUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a URL`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol !== 'http:') return `"${value}" must start with https://`;
  if (!isLoopbackHost(url.hostname)) {
    return 'must use https:// (plain http is allowed only to localhost, 127.0.0.1 or [::1])';
  }
  return undefined;
}

function isLoopbackHost(hostname: string): boolean {
  // Pure string checks (no node:net): the settings schema, which the UI may import, uses this.
  const bare = hostname.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}
