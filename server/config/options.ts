import { homedir } from 'node:os';
import { join } from 'node:path';
import { isKnownTimeZone } from '../clock/zonedTime.js';
import type { LogLevel } from '../contract/domain/logLevels.js';
import { serverUrlProblem } from '../contract/domain/serverUrl.js';
import { isTcpAddress, parseTcpAddress, tcpAddressForm } from '../contract/domain/tcpAddress.js';
import { hilinkUrlPattern } from '../contract/schemas/gatewaySchemas.js';
import { type AtSessionTiming, defaultAtSessionTiming } from '../devices/at/atSession.js';
import {
  checkModemTiming,
  defaultModemTiming,
  type ModemTimingOptions,
} from '../devices/modem/modemTiming.js';
import { PhoneAddress } from '../devices/phone/phoneAddress.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { HealthThresholds } from '../services/health/healthService.js';

/**
 * Every start-up option in one documented object, merged over `defaultOptions` and checked by
 * `checkOptions` before anything starts (pattern: zwave-js ZWaveOptions).
 */
export interface SerialModemOption {
  /**
   * A serial port path (`/dev/ttyUSB2`, `COM3`), or `tcp://host:port` for a modem behind a
   * serial-over-IP server (ser2net in raw mode, a network modem): same AT traffic, over a socket.
   */
  path: string;
  /** Bits per second; USB modems ignore it, real UARTs need it (a TCP modem: the server's). Default 115200. */
  baudRate: number;
}

export interface GatewayOptions {
  /** Where the HTTP API and UI listen. Default 127.0.0.1:8080 (LAN only when the user opts in). */
  listen: { host: string; port: number };
  /** Where messages, settings and secrets live. Default: the per-user app-data folder. */
  dataDir: string;
  /** Serial modems to use. Empty: probe the serial ports, else fall back to a simulated modem. */
  modems: SerialModemOption[];
  /**
   * Huawei HiLink (router-mode) sticks by the URL of their web API, e.g. http://192.168.8.1.
   * They have no AT port; see server/devices/hilink/.
   */
  hilinks: string[];
  /**
   * Android phones running the SMS Gateway for Android app, by its Local server's URL with the
   * app's user and password: http://sms:PASSWORD@192.168.1.20:8080. See server/devices/phone/.
   */
  phones: string[];
  /** The adb program for USB phones (adb://…): "adb" on PATH unless --adb names it. */
  adbPath: string;
  /** Number of built-in simulated modems to run (0: none unless no real modem is found). */
  simulatedModems: number;
  /**
   * Start a simulated modem when no real modem answers at start-up (the headless try-out).
   * The desktop app turns it off: there the simulator is the user's choice, never a fallback.
   */
  simulatorFallback: boolean;
  /** Probe serial ports for modems when none is configured. Default true. */
  probeSerialPorts: boolean;
  /** Basic credentials; absent: generated on first run, stored, printed once. */
  username?: string;
  password?: string;
  /** SIM PIN tried once per modem that asks for one (a wrong PIN is never retried). */
  simPin?: string;
  /** Level of every module that has none of its own (`--log-level`). Default INFO. */
  logLevel: LogLevel;
  /**
   * Levels of single modules and their children, by module name (`--log-level at=DEBUG`):
   * `at` covers every AT session (`at:/dev/ttyUSB0`, `at:simulated:1`), `modem` every driver.
   * The longest matching name wins. Default: none.
   */
  moduleLogLevels: Record<string, LogLevel>;
  /**
   * The modem drivers' timeouts, intervals and back-off: unit, range and default of each are
   * documented on `ModemTimingOptions` (server/devices/modem/modemTiming.ts). Default `defaultModemTiming`.
   */
  modemTiming: ModemTimingOptions;
  /**
   * Every AT session's resync and grace waits, each 1 ms..24 h, and its take-over probes (1..10):
   * documented on `defaultAtSessionTiming` (server/devices/at/atSession.ts), the default. A command's own
   * wait is the modem timing's (`commandTimeoutMs`).
   */
  atSession: AtSessionTiming;
  /** Longest wait for one request to a HiLink stick's web API, in ms, 100..120 000. Default 5 000. */
  hilinkRequestTimeoutMs: number;
  /** When GET /health warns or fails (see `HealthLimits` below). */
  health: HealthLimits;
  /** Extra Host header names accepted besides localhost/127.0.0.1/[::1] (DNS-rebinding guard). */
  allowedHosts: string[];
  /** Origins allowed by CORS; empty: no CORS headers at all. */
  corsOrigins: string[];
  /** Most messages that may wait in Pending before POST /messages answers 503. 1..10,000,000. */
  maxPendingMessages: number;
  /** Re-queue a send interrupted by a crash instead of failing it (may send twice). Default false. */
  resendInterrupted: boolean;
  /**
   * Show SMS PDUs in the AT log and the DEBUG trace (`--show-pdus`): each holds a whole message,
   * so by default only its size is shown. For debugging a modem. Default false.
   */
  showPdus: boolean;
  /** How long the database's page-reader and checkpoint threads stay after their last request. */
  dbThreadIdleMs: number;
  /** Built UI to serve at /ui/; absent: the API only. */
  uiDirectory?: string;
  /** IANA time zone the working hours (`messages.work_hours_*`) are read in. Default: this computer's. */
  timeZone: string;
  /**
   * Fleet mode from the command line (`--server-url`, `--server-token`): written into the
   * settings `gateway.cloud_url` / `gateway.private_token` at start, so the UI shows them.
   */
  fleetServer?: { url: string; token: string };
}

/** The thresholds of GET /health; the queue fails at `maxPendingMessages`, where POST answers 503. */
export type HealthLimits = Omit<HealthThresholds, 'queueFail'>;

export const defaultHealthLimits: HealthLimits = {
  /** dBm, −113..−51: below it `modems:signal` warns (−105 dBm is +CSQ 4, TS 27.007 §8.5). */
  weakSignalDbm: -105,
  /** Failed messages in the last hour, ≥ 1: from here `messages:failed` warns… */
  failedWarn: 1,
  /** …and from here it fails (≥ failedWarn). */
  failedFail: 50,
  /** Pending messages, ≥ 1: from here `messages:queue` warns. */
  queueWarn: 1_000,
};

export const defaultListen = { host: '127.0.0.1', port: 8080 } as const;

/** The URL a local client reaches `listen` at (a wildcard host is reached on loopback). */
export function localUrlOf({ host, port }: GatewayOptions['listen']): string {
  const bracketed = host.includes(':') ? `[${host}]` : host;
  return `http://${bracketed === '0.0.0.0' || bracketed === '[::]' ? '127.0.0.1' : bracketed}:${port}`;
}

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Desktop SMS Gateway');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Desktop SMS Gateway');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'desktop-sms-gateway');
}

export function defaultOptions(): GatewayOptions {
  return {
    listen: { ...defaultListen },
    dataDir: defaultDataDir(),
    modems: [],
    hilinks: [],
    phones: [],
    adbPath: 'adb',
    simulatedModems: 0,
    simulatorFallback: true,
    probeSerialPorts: true,
    logLevel: 'INFO',
    moduleLogLevels: {},
    modemTiming: { ...defaultModemTiming },
    atSession: { ...defaultAtSessionTiming },
    hilinkRequestTimeoutMs: 5_000,
    health: { ...defaultHealthLimits },
    allowedHosts: [],
    corsOrigins: [],
    maxPendingMessages: 100_000,
    resendInterrupted: false,
    showPdus: false,
    dbThreadIdleMs: 30_000,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}

/** Throws GatewayError(ConfigInvalid) naming the option at fault. */
export function checkOptions(options: GatewayOptions): GatewayOptions {
  const fail = (field: string, message: string): never => {
    throw new GatewayError(ErrorCode.ConfigInvalid, `${field}: ${message}`, { field });
  };
  const { port, host } = options.listen;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('listen', `port ${port} is not 0..65535`);
  if (host.trim() === '') fail('listen', 'host is empty');
  if (!isKnownTimeZone(options.timeZone)) fail('time-zone', `"${options.timeZone}" is not an IANA time zone`);
  if (options.dataDir.trim() === '') fail('data-dir', 'is empty');
  for (const modem of options.modems) {
    if (modem.path.trim() === '') fail('modem', 'path is empty');
    if (isTcpAddress(modem.path) && !parseTcpAddress(modem.path)) {
      fail('modem', `"${modem.path}" is not ${tcpAddressForm}`);
    }
    if (!Number.isInteger(modem.baudRate) || modem.baudRate < 300 || modem.baudRate > 4_000_000) {
      fail('modem', `baud rate ${modem.baudRate} is not 300..4000000`);
    }
  }
  for (const url of options.hilinks) {
    if (!hilinkUrlPattern.test(url)) fail('hilink', `"${url}" is not a URL like http://192.168.8.1`);
  }
  for (const url of options.phones) {
    // The address carries the app's password: the complaint names what is wrong, never the URL.
    try {
      PhoneAddress.parse(url);
    } catch (error) {
      fail('phone', error instanceof Error ? error.message : String(error));
    }
  }
  if (
    !Number.isInteger(options.simulatedModems) ||
    options.simulatedModems < 0 ||
    options.simulatedModems > 64
  ) {
    fail('simulate', 'count must be 0..64');
  }
  if (options.fleetServer) {
    const problem = serverUrlProblem(options.fleetServer.url);
    if (problem) fail('server-url', problem);
    if (options.fleetServer.token.trim() === '') fail('server-token', 'is empty');
  }
  if ((options.username === undefined) !== (options.password === undefined)) {
    fail(options.username === undefined ? 'username' : 'password', 'give both --username and --password');
  }
  if (options.username !== undefined && (options.username === '' || options.username.includes(':'))) {
    fail('username', 'must be non-empty and contain no ":"');
  }
  if (options.password !== undefined && options.password.length < 8) {
    fail('password', 'must be at least 8 characters');
  }
  if (options.simPin !== undefined && !/^\d{4,8}$/.test(options.simPin))
    fail('sim-pin', 'must be 4 to 8 digits');
  if (
    !Number.isInteger(options.maxPendingMessages) ||
    options.maxPendingMessages < 1 ||
    options.maxPendingMessages > 10_000_000
  ) {
    fail('max-pending', 'must be 1..10000000');
  }
  if (
    !Number.isInteger(options.dbThreadIdleMs) ||
    options.dbThreadIdleMs < 100 ||
    options.dbThreadIdleMs > 3_600_000
  ) {
    fail('db-thread-idle', 'must be 100..3600000 milliseconds');
  }
  for (const origin of options.corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      fail('cors-origin', `"${origin}" is not an origin like https://app.example`);
  }
  for (const module of Object.keys(options.moduleLogLevels)) {
    if (!/^[^\s=,]+$/.test(module)) fail('log-level', `"${module}" is not a module name`);
  }
  try {
    checkModemTiming(options.modemTiming);
  } catch (error) {
    fail('modemTiming', error instanceof Error ? error.message : String(error));
  }
  const { resyncAttempts, ...atWaits } = options.atSession;
  for (const [name, value] of Object.entries(atWaits)) {
    if (!Number.isFinite(value) || value <= 0 || value > dayMs)
      fail('atSession', `${name}=${value} is not 1 ms..24 h`);
  }
  if (!Number.isInteger(resyncAttempts) || resyncAttempts < 1 || resyncAttempts > 10)
    fail('atSession', `resyncAttempts=${resyncAttempts} is not 1..10`);
  const hilinkTimeout = options.hilinkRequestTimeoutMs;
  if (!Number.isInteger(hilinkTimeout) || hilinkTimeout < 100 || hilinkTimeout > 120_000) {
    fail('hilinkRequestTimeoutMs', `${hilinkTimeout} is not 100..120000`);
  }
  const { weakSignalDbm, failedWarn, failedFail, queueWarn } = options.health;
  if (!Number.isFinite(weakSignalDbm) || weakSignalDbm < -113 || weakSignalDbm > -51) {
    fail('health', `weakSignalDbm=${weakSignalDbm} is not -113..-51`);
  }
  for (const [name, value] of Object.entries({ failedWarn, failedFail, queueWarn })) {
    if (!Number.isInteger(value) || value < 1) fail('health', `${name}=${value} is not a whole number ≥ 1`);
  }
  if (failedFail < failedWarn) fail('health', 'failedFail is below failedWarn');
  return options;
}

const dayMs = 24 * 60 * 60_000;
