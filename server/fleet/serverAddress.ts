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

/** `{cloud_url}/message` with or without a trailing slash on the base. */
export function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/**
 * How the gateway proves it may register (`gateway.private_token`, `--server-token`), in the
 * form of the Authorization header upstream's `POST /mobile/v1/device` accepts (handlers/
 * mobile.go: userauth.NewBasic, userauth.NewCode, keyauth): `Basic <login>:<password>` for an
 * existing user, `Code <one-time code>` from `GET /mobile/v1/user/code`, anything else is the
 * server's private key, sent as `Bearer`.
 */
export type RegistrationCredential =
  | { kind: 'basic'; login: string; password: string }
  | { kind: 'code'; code: string }
  | { kind: 'serverKey'; key: string };

export function parseRegistrationCredential(value: string): RegistrationCredential {
  const basic = /^basic\s+([^:]+):(.+)$/is.exec(value.trim());
  if (basic?.[1] && basic[2]) return { kind: 'basic', login: basic[1], password: basic[2] };
  const code = /^code\s+(\S+)$/i.exec(value.trim());
  if (code?.[1]) return { kind: 'code', code: code[1] };
  return { kind: 'serverKey', key: value.trim() };
}

export function authorizationFor(credential: RegistrationCredential): string {
  switch (credential.kind) {
    case 'basic':
      return `Basic ${base64OfUtf8(`${credential.login}:${credential.password}`)}`;
    case 'code':
      return `Code ${credential.code}`;
    case 'serverKey':
      return `Bearer ${credential.key}`;
  }
}

function base64OfUtf8(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}
