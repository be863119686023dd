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
