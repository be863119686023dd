import { homedir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { LogLevel } from '../logging/logger.js';
import { PhoneAddress } from '../phone/phoneAddress.js';
import { isTcpAddress, parseTcpAddress } from '../transport/tcpTransport.js';
import { serverUrlProblem } from '../validation/serverUrl.js';

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
   * They have no AT port; see server/hilink/.
   */
  hilinks: string[];
  /**
   * Android phones running the SMS Gateway for Android app, by its Local server's URL with the
   * app's user and password: http://sms:PASSWORD@192.168.1.20:8080. See server/phone/.
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
  logLevel: LogLevel;
  /** Extra Host header names accepted besides localhost/127.0.0.1/[::1] (DNS-rebinding guard). */
  allowedHosts: string[];
  /** Origins allowed by CORS; empty: no CORS headers at all. */
  corsOrigins: string[];
  /** Most messages that may wait in Pending before POST /messages answers 503. 1..10,000,000. */
  maxPendingMessages: number;
  /** Re-queue a send interrupted by a crash instead of failing it (may send twice). Default false. */
  resendInterrupted: boolean;
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
    allowedHosts: [],
    corsOrigins: [],
    maxPendingMessages: 100_000,
    resendInterrupted: false,
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
  if (!isTimeZone(options.timeZone)) fail('time-zone', `"${options.timeZone}" is not an IANA time zone`);
  if (options.dataDir.trim() === '') fail('data-dir', 'is empty');
  for (const modem of options.modems) {
    if (modem.path.trim() === '') fail('modem', 'path is empty');
    if (isTcpAddress(modem.path) && !parseTcpAddress(modem.path)) {
      fail('modem', `"${modem.path}" is not tcp://<host>:<port>`);
    }
    if (!Number.isInteger(modem.baudRate) || modem.baudRate < 300 || modem.baudRate > 4_000_000) {
      fail('modem', `baud rate ${modem.baudRate} is not 300..4000000`);
    }
  }
  for (const url of options.hilinks) {
    if (!/^https?:\/\/[^/\s]+\/?$/.test(url)) fail('hilink', `"${url}" is not a URL like http://192.168.8.1`);
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
  for (const origin of options.corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      fail('cors-origin', `"${origin}" is not an origin like https://app.example`);
  }
  return options;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
