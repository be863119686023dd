/**
 * The whole gateway as a user runs it, for acceptance suites: `createGateway` on 127.0.0.1 with
 * real storage in a temporary data directory, Basic credentials, the real Koa server, and
 * simulated modems either behind ptys (opened by the REAL serialport binding, as a USB modem
 * is) or built in (in-memory). Time is the system clock: ptys, sockets and child processes do
 * not run on a ManualClock.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../server/clock/clock.js';
import { defaultOptions, type GatewayOptions } from '../../server/config/options.js';
import type { LogLevel } from '../../server/contract/domain/logLevels.js';
import { defaultModemTiming, type ModemTimingOptions } from '../../server/devices/modem/modemTiming.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import type {
  AcceptedPdu,
  SimulatedModem,
  SimulatedModemOptions,
} from '../../server/devices/simulator/simulatedModem.js';
import { createGateway, type Gateway, type GatewayDependencies } from '../../server/index.js';
import { createLogger, type Logger, type LogRecord } from '../../server/logging/logger.js';

export const harnessUser = 'integration';
export const harnessPassword = 'integration-secret-1';
const basicAuthorization = `Basic ${Buffer.from(`${harnessUser}:${harnessPassword}`).toString('base64')}`;

export interface ApiResponse<Body = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON (undefined for an empty or non-JSON body). */
  body: Body;
  text: string;
}

export interface ApiRequestOptions {
  /** Serialised as JSON with a JSON content type. */
  json?: unknown;
  /** Sent as is (with a JSON content type unless `headers` says otherwise). */
  raw?: string;
  headers?: Record<string, string>;
}

/** Authenticated calls against the running gateway; paths are relative to its root URL. */
export interface GatewayApi {
  request<Body = unknown>(
    method: string,
    path: string,
    options?: ApiRequestOptions,
  ): Promise<ApiResponse<Body>>;
  get<Body = unknown>(path: string): Promise<ApiResponse<Body>>;
  post<Body = unknown>(path: string, json: unknown): Promise<ApiResponse<Body>>;
  patch<Body = unknown>(path: string, json: unknown): Promise<ApiResponse<Body>>;
}

export interface GatewayHarnessOptions {
  /** Simulated modems behind ptys, opened through the real serialport binding. Default 0. */
  ptyModems?: number;
  /** Simulator options of pty modem `index` (each gets its own IMEI unless this sets one). */
  ptyModemOptions?: (index: number) => Omit<SimulatedModemOptions, 'clock' | 'logger'>;
  /** Built-in in-memory simulated modems. Default 0. */
  simulatedModems?: number;
  modemTiming?: Partial<ModemTimingOptions>;
  webhookPoster?: GatewayDependencies['webhookPoster'];
  phoneTiming?: GatewayDependencies['phoneTiming'];
  /** Fleet mode's fetch interval while the server's events stream is down. */
  fleetPollIntervalMs?: number;
  /** Level of the records kept in `logs` (default WARN). */
  logLevel?: LogLevel;
  /** Extra gateway options (listen, dataDir and credentials are the harness's). */
  options?: Partial<Omit<GatewayOptions, 'listen' | 'dataDir' | 'username' | 'password'>>;
  /**
   * Turns the setting `network.allow_private_targets` on at the first start (it is kept for
   * restarts): the serial servers, phones and HiLink sticks tests add listen on loopback.
   */
  allowPrivateTargets?: boolean;
}

export interface GatewayHarness {
  /** Root URL of the API, e.g. http://127.0.0.1:40123 (kept across restarts). */
  readonly url: string;
  readonly dataDir: string;
  readonly gateway: Gateway;
  readonly api: GatewayApi;
  /** Log records of the gateway and the simulators at `logLevel` or above, for diagnostics. */
  readonly logs: readonly LogRecord[];
  /** The simulator of pty modem `index`; throws while it is unplugged. */
  ptyModem(index: number): SimulatedModem;
  /** The pty path the gateway opens for modem `index` (stable across unplug and replug). */
  ptyPath(index: number): string;
  /** Every PDU pty modem `index` accepted, across all its plug-ins. */
  acceptedBy(index: number): AcceptedPdu[];
  /** Closes the modem's pty, as pulling the USB cable does. */
  unplug(index: number): Promise<void>;
  /** A fresh simulator (same identity) at the same path, as plugging the cable back in does. */
  replug(index: number): Promise<SimulatedModem>;
  /** Stops the gateway and starts a new one on the same data directory, port and modems. */
  restart(): Promise<void>;
  /** Stops everything and removes the data directory and the pty folder. */
  close(): Promise<void>;
}

interface PtySlot {
  name: string;
  options: Omit<SimulatedModemOptions, 'clock' | 'logger'>;
  current?: PtyModem;
  /** PDUs accepted by simulators of this slot that were unplugged since. */
  retired: AcceptedPdu[];
}

/** IMEIs of pty modem `index` (the Luhn digit is not checked by the driver). */
function imeiFor(index: number): string {
  return `35690000000${String(index).padStart(4, '0')}`;
}

export async function startGatewayHarness(options: GatewayHarnessOptions = {}): Promise<GatewayHarness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-it-data-'));
  const ptyDirectory = await mkdtemp(join(tmpdir(), 'smsgw-it-pty-'));
  const logs: LogRecord[] = [];
  const logger = createLogger({ level: options.logLevel ?? 'WARN', sinks: [(record) => logs.push(record)] });
  const slots: PtySlot[] = [];
  let gateway: Gateway | undefined;
  let port = 0;

  const plug = async (slot: PtySlot): Promise<PtyModem> => {
    const pty = await startPtyModem({
      clock: systemClock,
      logger: logger.child(slot.name),
      directory: ptyDirectory,
      name: slot.name,
      modem: slot.options,
    });
    slot.current = pty;
    return pty;
  };

  const startGateway = async (): Promise<Gateway> => {
    const gatewayOptions: GatewayOptions = {
      ...defaultOptions(),
      probeSerialPorts: false,
      simulatedModems: options.simulatedModems ?? 0,
      ...options.options,
      listen: { host: '127.0.0.1', port },
      dataDir,
      username: harnessUser,
      password: harnessPassword,
      modems: slots.map((slot) => ({ path: join(ptyDirectory, slot.name), baudRate: 115_200 })),
      logLevel: options.logLevel ?? 'WARN',
      modemTiming: { ...defaultModemTiming, ...options.modemTiming },
    };
    const deps: GatewayDependencies = { clock: systemClock, logSinks: [(record) => logs.push(record)] };
    if (options.webhookPoster) deps.webhookPoster = options.webhookPoster;
    if (options.phoneTiming) deps.phoneTiming = options.phoneTiming;
    if (options.fleetPollIntervalMs !== undefined) deps.fleetPollIntervalMs = options.fleetPollIntervalMs;
    const created = createGateway(gatewayOptions, deps);
    const started = await created.start();
    port = Number(new URL(started.url).port);
    return created;
  };

  const requireGateway = (): Gateway => {
    if (!gateway) throw new Error('the gateway is not running');
    return gateway;
  };
  const requireSlot = (index: number): PtySlot => {
    const slot = slots[index];
    if (!slot) throw new Error(`there is no pty modem ${index}`);
    return slot;
  };

  try {
    for (let index = 0; index < (options.ptyModems ?? 0); index++) {
      const slot: PtySlot = {
        name: `modem${index}`,
        options: { ...options.ptyModemOptions?.(index) },
        retired: [],
      };
      slot.options.identity = { imei: imeiFor(index), ...slot.options.identity };
      slots.push(slot);
      await plug(slot);
    }
    gateway = await startGateway();
    if (options.allowPrivateTargets) {
      const allowed = await createApi(() => `http://127.0.0.1:${port}`).patch('/settings', {
        network: { allow_private_targets: true },
      });
      if (allowed.status !== 200) throw new Error(`could not allow private targets: ${allowed.text}`);
    }
  } catch (error) {
    await gateway?.stop();
    await Promise.all(slots.map((slot) => slot.current?.close()));
    await rm(dataDir, { recursive: true, force: true });
    await rm(ptyDirectory, { recursive: true, force: true });
    throw error;
  }

  const api = createApi(() => `http://127.0.0.1:${port}`);
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    dataDir,
    get gateway() {
      return requireGateway();
    },
    api,
    logs,
    ptyModem(index) {
      const current = requireSlot(index).current;
      if (!current) throw new Error(`pty modem ${index} is unplugged`);
      return current.modem;
    },
    ptyPath: (index) => join(ptyDirectory, requireSlot(index).name),
    acceptedBy(index) {
      const slot = requireSlot(index);
      return [...slot.retired, ...(slot.current?.modem.accepted ?? [])];
    },
    async unplug(index) {
      const slot = requireSlot(index);
      const current = slot.current;
      if (!current) return;
      slot.current = undefined;
      await current.close();
      slot.retired.push(...current.modem.accepted);
    },
    async replug(index) {
      const slot = requireSlot(index);
      if (slot.current) throw new Error(`pty modem ${index} is plugged in`);
      return (await plug(slot)).modem;
    },
    async restart() {
      await requireGateway().stop();
      gateway = undefined;
      gateway = await startGateway();
    },
    async close() {
      await gateway?.stop();
      gateway = undefined;
      for (const slot of slots) {
        const current = slot.current;
        slot.current = undefined;
        await current?.close();
      }
      await rm(dataDir, { recursive: true, force: true });
      await rm(ptyDirectory, { recursive: true, force: true });
    },
  };
}

export function createApi(baseUrl: () => string): GatewayApi {
  const request = async <Body>(
    method: string,
    path: string,
    requestOptions: ApiRequestOptions = {},
  ): Promise<ApiResponse<Body>> => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: basicAuthorization,
      ...requestOptions.headers,
    };
    let payload = requestOptions.raw;
    if (requestOptions.json !== undefined) payload = JSON.stringify(requestOptions.json);
    if (payload !== undefined) headers['Content-Type'] ??= 'application/json';
    const response = await fetch(`${baseUrl()}${path}`, { method, headers, body: payload });
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, body: body as Body, text };
  };
  return {
    request,
    get: (path) => request('GET', path),
    post: (path, json) => request('POST', path, { json }),
    patch: (path, json) => request('PATCH', path, { json }),
  };
}

/** A quiet logger for simulators a test starts itself (records at WARN and above kept in `into`). */
export function collectingLogger(into: LogRecord[], level: LogLevel = 'WARN'): Logger {
  return createLogger({ level, sinks: [(record) => into.push(record)] });
}
