import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../server/clock/manualClock.js';
import { defaultOptions, type GatewayOptions } from '../../../server/config/options.js';
import type { IncomingMessageEvent } from '../../../server/contract/domain/incoming.js';
import { createGateway, type Gateway, type GatewayDependencies } from '../../../server/index.js';

/**
 * The whole gateway as a customer runs it — `createGateway` with one built-in simulated modem,
 * real storage in a temporary directory, the real Koa server on a loopback port — driven over
 * HTTP with fetch. Time is a ManualClock: nothing is sent until a test advances it, so queued
 * messages stay Pending for as long as a test needs them to.
 */
export const user = 'compat-admin';
export const password = 'compat password 123';
export const basicHeader = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
export const wrongBasicHeader = `Basic ${Buffer.from(`${user}:not the password`).toString('base64')}`;

/** The spec's three bases (docs/decisions.md#mounts Mounts): Local mode at the root, Cloud, Private. */
export const mounts = ['', '/3rdparty/v1', '/api/3rdparty/v1'] as const;
export type Mount = (typeof mounts)[number];

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON, or undefined for an empty or non-JSON body. */
  body: unknown;
}

export interface ApiRequest {
  /** Serialised as JSON with Content-Type application/json. */
  json?: unknown;
  /** Authorization header; default Basic with the right password; null: none. */
  authorization?: string | null;
  /** Further headers as a client sends them (User-Agent, Accept), set after the defaults. */
  headers?: Record<string, string>;
}

export interface GatewayUnderTest {
  url: string;
  /** Its data folder, removed at stop. */
  dataDir: string;
  clock: ManualClock;
  gateway: Gateway;
  request(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
  /** Issues a token pair through POST /auth/token (Basic) holding exactly these scopes. */
  issueTokens(scopes: readonly string[]): Promise<TokenPair>;
  /** `Bearer <access token>` for a fresh token holding exactly these scopes. */
  bearer(scopes: readonly string[]): Promise<string>;
  /** Lets the scheduler hand queued messages to the simulated modem until `done` holds. */
  runUntil(done: () => boolean | Promise<boolean>, what: string): Promise<void>;
  /** An SMS from `sender` arrives at the simulated modem and lands in the inbox. */
  receiveSms(sender: string, text: string): Promise<IncomingMessageEvent>;
  stop(): Promise<void>;
}

export interface TokenPair {
  id: string;
  token_type: string;
  access_token: string;
  refresh_token: string;
  expires_at: string;
}

/**
 * `runUntil` gives up only after 60 simulated seconds AND 20 real ones: the simulated steps are
 * cheap, but what they wait for (the store's fsync on the thread pool, loopback HTTP) takes real
 * time, and on a loaded machine 60 simulated seconds can pass within one slow fsync.
 */
const runLimitSteps = 600;
const stepMs = 100;
const runLimitRealMs = 20_000;

export async function startGatewayUnderTest(
  overrides: Partial<GatewayOptions> = {},
  deps: Pick<GatewayDependencies, 'loginThrottle'> = {},
): Promise<GatewayUnderTest> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const dataDir = await mkdtemp(join(tmpdir(), 'sms-gateway-compat-'));
  const gateway = createGateway(
    {
      ...defaultOptions(),
      simulatedModems: 1,
      probeSerialPorts: false,
      listen: { host: '127.0.0.1', port: 0 },
      dataDir,
      username: user,
      password,
      logLevel: 'INFO',
      ...overrides,
    },
    { ...deps, clock, logSinks: [] },
  );
  const { url } = await startOnManualTime(gateway, clock);

  const request = async (method: string, path: string, options: ApiRequest = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const authorization = options.authorization === undefined ? basicHeader : options.authorization;
    if (authorization !== null) headers.Authorization = authorization;
    if (options.json !== undefined) headers['Content-Type'] = 'application/json';
    Object.assign(headers, options.headers);
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
    });
    // The live event stream never ends: its status and headers are all a test can read.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, text: '', body: undefined };
    }
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: parseJson(text) };
  };

  const issueTokens = async (scopes: readonly string[]): Promise<TokenPair> => {
    const response = await request('POST', '/auth/token', { json: { scopes } });
    if (response.status !== 201)
      throw new Error(`token for ${scopes.join(',')}: ${response.status} ${response.text}`);
    return response.body as TokenPair;
  };

  const runUntil = async (done: () => boolean | Promise<boolean>, what: string): Promise<void> => {
    const realDeadline = Date.now() + runLimitRealMs;
    for (let step = 0; step < runLimitSteps || Date.now() < realDeadline; step++) {
      if (await done()) return;
      await clock.advance(stepMs);
      // The simulated modem and the server answer on real I/O callbacks between clock steps.
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error(
      `${what} did not happen within ${(runLimitSteps * stepMs) / 1000} simulated and ${runLimitRealMs / 1000} real seconds`,
    );
  };

  const receiveSms = async (sender: string, text: string): Promise<IncomingMessageEvent> => {
    const modem = gateway.simulatedModems[0];
    if (!modem) throw new Error('the gateway runs no simulated modem');
    let received: IncomingMessageEvent | undefined;
    const stopListening = gateway.events.on('message:received', (event) => {
      if (event.sender === sender && event.content === text) received = event;
    });
    try {
      modem.injectIncoming({ sender, text });
      await runUntil(() => received !== undefined, `an SMS from ${sender}`);
    } finally {
      stopListening();
    }
    return received as IncomingMessageEvent;
  };

  return {
    url,
    dataDir,
    clock,
    gateway,
    request,
    issueTokens,
    bearer: async (scopes) => `Bearer ${(await issueTokens(scopes)).access_token}`,
    runUntil,
    receiveSms,
    async stop() {
      await gateway.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starting waits on simulated time: the modem line takeover (ESC, then a quiet wait before the
 * first AT) runs on the injected clock, so the clock is stepped until the start completes. The
 * steps are a few real milliseconds apart because the start also waits on disk I/O (fsync).
 */
async function startOnManualTime(gateway: Gateway, clock: ManualClock): Promise<{ url: string }> {
  let started = false;
  const starting = gateway.start().finally(() => {
    started = true;
  });
  for (let step = 0; step < runLimitSteps && !started; step++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await clock.advance(stepMs);
  }
  return starting;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
