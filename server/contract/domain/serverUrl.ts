/**
 * Where the private server's device API lives (`gateway.cloud_url`, `--server-url`), e.g.
 * `https://sms.example.com/api/mobile/v1` as the Android app takes it. The device token and
 * every message travel over it, so plain http is refused except to this PC itself. A login in
 * the URL is refused too: the setting is shown back to every settings reader, while a login
 * belongs in the write-only `gateway.private_token` ("Basic <login>:<password>").
 * Returns why the URL is unfit, or undefined; never repeats a login it found.
 */
export function serverUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a URL`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'must not contain a user or password: give the login as the private token ("Basic <login>:<password>")';
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

/** The URL without a user and password, for a value kept before they were refused. */
export function withoutLogin(value: string): string {
  try {
    const url = new URL(value);
    if (url.username === '' && url.password === '') return value;
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return value;
  }
}
