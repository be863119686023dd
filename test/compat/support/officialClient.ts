import type { HttpClient } from 'android-sms-gateway';
import * as officialClientModule from 'android-sms-gateway';

/**
 * The official TypeScript client (`android-sms-gateway` on npm, v3) wired to fetch, the way its
 * README shows: the client only builds URLs and headers and hands them to an HttpClient object.
 */
export type OfficialClient = InstanceType<typeof officialClientModule.default.default>;
export type { HttpClient };

/**
 * The package ships ES module syntax without `"type": "module"`: TypeScript reads it as
 * CommonJS (the class at `default.default`) while Vitest loads it as ESM (the class at `default`).
 */
type ClientClass = typeof officialClientModule.default.default;
const loaded = officialClientModule.default as unknown as ClientClass | { default: ClientClass };
const Client: ClientClass = typeof loaded === 'function' ? loaded : loaded.default;

/** What the client asked for, so a test can show which URL and credentials it really used. */
export interface RecordedCall {
  method: string;
  url: string;
  headers: Record<string, string>;
}

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    url: string,
  ) {
    super(`${status} from ${url}: ${body}`);
  }
}

export interface RecordingHttpClient extends HttpClient {
  readonly calls: RecordedCall[];
}

/** A non-2xx answer rejects with its status, so no failure passes as an empty result. */
export function fetchHttpClient(): RecordingHttpClient {
  const calls: RecordedCall[] = [];
  const call = async <T>(
    method: string,
    url: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    calls.push({ method, url, headers });
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new HttpStatusError(response.status, text, url);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return {
    calls,
    get: (url, headers) => call('GET', url, undefined, headers),
    post: (url, body, headers) => call('POST', url, body, headers),
    put: (url, body, headers) => call('PUT', url, body, headers),
    patch: (url, body, headers) => call('PATCH', url, body, headers),
    delete: (url, headers) => call('DELETE', url, undefined, headers),
  };
}

/** The client as a customer constructs it: login, password, HTTP client, base URL (4th argument). */
export function officialClient(
  login: string,
  password: string,
  http: HttpClient,
  baseUrl: string,
): OfficialClient {
  return new Client(login, password, http, baseUrl);
}
