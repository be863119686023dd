import type { ErrorBody } from '../../../server/contract/schemas/errorBodySchema.js';

/**
 * The one way the UI talks to the gateway: JSON over fetch with the session's Authorization
 * header. Every failure becomes an ApiError whose `kind` the screens branch on; the text is the
 * server's own `{"message"}`, so it can be shown as is, and `field` the setting or request field
 * the server named, for a screen to mark.
 */

export type ApiErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'unavailable'
  | 'server'
  | 'network';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    message: string,
    /** The request field or setting the server named as at fault (`messages.limit_value`). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Extra headers; Authorization is added from the session unless given here. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Read a successful body as bytes (a file download) instead of JSON or text. */
  binary?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

export interface ApiClientOptions {
  baseUrl: string;
  /** The Authorization header value of the session, read on every request (tokens rotate). */
  authorization: () => string | undefined;
  /**
   * Called on a 401. Answer true when a fresh credential is now in place (the Electron window's
   * short-lived token was renewed): the request is then sent once more. Otherwise the session is
   * over and the app returns to the login form.
   */
  onUnauthorized?: UnauthorizedHandler;
  fetch?: typeof fetch;
}

export type UnauthorizedHandler = () => Promise<boolean> | boolean | undefined;

export interface ApiClient {
  readonly baseUrl: string;
  request<T>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T>(path: string, query?: Record<string, QueryValue>): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
}

export function errorKindForStatus(status: number): ApiErrorKind {
  if (status === 400 || status === 422) return 'invalid';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 503) return 'unavailable';
  return 'server';
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    url.searchParams.set(key, String(value));
  }
  return url.toString();
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function send<T>(
    method: string,
    path: string,
    init: RequestOptions = {},
    renewed = false,
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const authorization = options.authorization();
    if (authorization) headers.Authorization = authorization;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    Object.assign(headers, init.headers);
    let response: Response;
    try {
      response = await doFetch(buildUrl(options.baseUrl, path, init.query), {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.signal,
        // Credentials travel in the Authorization header only. "omit" also keeps the browser from
        // answering a 401's WWW-Authenticate: Basic with its own login dialog (Fetch §4.5, 401).
        credentials: 'omit',
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      throw new ApiError('network', 0, 'The gateway cannot be reached. Is it running?');
    }
    const data = init.binary && response.ok ? await response.blob() : await readBody(response);
    if (!response.ok) {
      // A request carrying credentials of its own (a password typed to confirm) failed on those,
      // not on the session: the session stays.
      const ownCredentials = init.headers?.Authorization !== undefined;
      if (
        response.status === 401 &&
        !renewed &&
        !ownCredentials &&
        (await options.onUnauthorized?.()) === true
      ) {
        return send<T>(method, path, init, true);
      }
      throw new ApiError(
        errorKindForStatus(response.status),
        response.status,
        errorText(response, data),
        fieldNamedBy(data),
      );
    }
    return { status: response.status, data: data as T, headers: response.headers };
  }

  return {
    baseUrl: options.baseUrl,
    request: (method, path, init) => send(method, path, init),
    get: async (path, query) => (await send<never>('GET', path, { query })).data,
    post: async (path, body) => (await send<never>('POST', path, { body })).data,
    patch: async (path, body) => (await send<never>('PATCH', path, { body })).data,
    delete: async (path) => (await send<never>('DELETE', path)).data,
  };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorText(response: Response, data: unknown): string {
  if (typeof data === 'object' && data !== null && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message !== '') return message;
  }
  if (typeof data === 'string' && data.trim() !== '' && data.length < 300) return data.trim();
  return `The gateway answered ${response.status} ${response.statusText}`.trim();
}

/** The `field` of an error body (`ErrorBody`, server/contract/schemas/errorBodySchema.ts), if it names one. */
function fieldNamedBy(data: unknown): ErrorBody['field'] {
  if (typeof data !== 'object' || data === null || !('field' in data)) return undefined;
  const { field } = data as { field: unknown };
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/** A human sentence for any error a screen caught. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'forbidden') return `Not allowed: ${error.message}`;
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
