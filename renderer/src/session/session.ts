import { ApiError, buildUrl, errorKindForStatus } from '../api/apiClient.js';
import type { TokenResponse } from '../api/types.js';

/**
 * Who the UI is talking to and as whom. In Electron the preload hands over a short-lived token
 * for this window; in a browser the user logs in and the token lives in sessionStorage (gone
 * when the tab closes, never in localStorage).
 */
export interface Session {
  mode: 'desktop' | 'browser';
  baseUrl: string;
  token: string;
  /** The Basic user the browser session logged in as. */
  username?: string;
  /** ISO; when the browser token ends. */
  expiresAt?: string;
}

export const sessionStorageKey = 'sms-gateway.session';
/** The browser session lasts a working day (seconds). */
export const browserSessionTtl = 28_800;

/** The part of `Storage` the session needs; sessionStorage in the app, a Map in tests. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function readStoredSession(store: KeyValueStore, nowMs: number): Session | undefined {
  const raw = store.getItem(sessionStorageKey);
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<Session>;
    if (typeof parsed.token !== 'string' || typeof parsed.baseUrl !== 'string') return undefined;
    if (parsed.expiresAt && Date.parse(parsed.expiresAt) <= nowMs) {
      store.removeItem(sessionStorageKey);
      return undefined;
    }
    return { ...parsed, mode: 'browser', token: parsed.token, baseUrl: parsed.baseUrl };
  } catch {
    store.removeItem(sessionStorageKey);
    return undefined;
  }
}

export function storeSession(store: KeyValueStore, session: Session): void {
  store.setItem(sessionStorageKey, JSON.stringify(session));
}

/** RFC 7617 §2.1: user-id ":" password, UTF-8, base64. */
export function basicAuthorization(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** POST /auth/token with Basic credentials; the token holds every scope for a working day. */
export async function logIn(
  baseUrl: string,
  username: string,
  password: string,
  doFetch: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<Session> {
  let response: Response;
  try {
    response = await doFetch(buildUrl(baseUrl, '/auth/token'), {
      method: 'POST',
      // No cookies, and no browser login dialog on a wrong password (see apiClient.ts).
      credentials: 'omit',
      headers: {
        Authorization: basicAuthorization(username, password),
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({ scopes: ['all:any'], ttl: browserSessionTtl }),
    });
  } catch {
    throw new ApiError('network', 0, 'The gateway cannot be reached. Is it running?');
  }
  const body = (await response.json().catch(() => undefined)) as Partial<TokenResponse> & {
    message?: string;
  };
  if (response.status === 401) throw new ApiError('unauthorized', 401, 'Wrong username or password.');
  if (!response.ok || typeof body?.access_token !== 'string') {
    throw new ApiError(
      errorKindForStatus(response.status),
      response.status,
      body?.message ?? `Login failed (${response.status}).`,
    );
  }
  return { mode: 'browser', baseUrl, token: body.access_token, username, expiresAt: body.expires_at };
}
