import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type LogLevel, parseLogLevel } from '../contract/domain/logLevels.js';
import { isTcpAddress } from '../contract/domain/tcpAddress.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import {
  checkOptions,
  defaultOptions,
  type GatewayOptions,
  localUrlOf,
  type SerialModemOption,
} from './options.js';

/**
 * `npm start -- <flags>`. Every flag has an environment twin (flag wins); both are listed in
 * `usage` and docs/options.md.
 */
export const usage = `Usage: npm start -- [options]

  --listen <host:port>      where the API and UI listen            (SMSGW_LISTEN, default 127.0.0.1:8080)
  --data-dir <dir>          where data and secrets are kept        (SMSGW_DATA_DIR, default: per-user app data)
  --modem <path>[:<baud>]   a serial modem; repeat for several     (SMSGW_MODEMS, comma-separated)
                            or tcp://<host>:<port>, a modem behind a serial server (ser2net)
  --hilink <url>            a Huawei HiLink stick's web API, e.g.  (SMSGW_HILINK, comma-separated)
                            http://192.168.8.1; repeatable
  --phone <url>             an Android phone with the SMS Gateway  (SMSGW_PHONES, comma-separated)
                            app, http://sms:PASSWORD@192.168.1.20:8080, or on USB
                            adb://sms:PASSWORD@SERIAL (see adb devices); repeatable
  --adb <path>              Android's adb for USB phones           (SMSGW_ADB, default: adb on PATH)
  --simulate [count]        run built-in simulated modem(s)        (SMSGW_SIMULATE, default count 1)
  --no-probe                do not probe serial ports for modems   (SMSGW_NO_PROBE=1)
  --username <name>         Basic auth user (with --password)      (SMSGW_USERNAME)
  --password <secret>       Basic auth password, 8+ characters     (SMSGW_PASSWORD)
  --password-file <path>    the password from a file               (SMSGW_PASSWORD_FILE)
  --sim-pin <pin>           SIM PIN, tried once per modem          (SMSGW_SIM_PIN)
  --sim-pin-file <path>     the SIM PIN from a file                (SMSGW_SIM_PIN_FILE)
  --log-level <levels>      DEBUG, INFO, WARN or ERROR, for all    (SMSGW_LOG_LEVEL, default INFO)
                            modules or per module: INFO,at=DEBUG,scheduler=WARN
                            (at: AT traffic of every port; at:/dev/ttyUSB0: one port)
  --show-pdus               show SMS PDUs in the AT log and the    (SMSGW_SHOW_PDUS=1)
                            DEBUG log; hidden by default, as each holds a whole message
  --allow-host <name>       extra accepted Host name; repeatable   (SMSGW_ALLOW_HOSTS, comma-separated)
  --cors-origin <origin>    allow CORS from an origin; repeatable  (SMSGW_CORS_ORIGINS, comma-separated)
  --max-pending <n>         pending messages before 503            (SMSGW_MAX_PENDING, default 100000)
  --resend-interrupted      re-queue sends cut by a crash          (SMSGW_RESEND_INTERRUPTED=1)
  --db-thread-idle <ms>     database threads stop after this idle  (SMSGW_DB_THREAD_IDLE_MS, default 30000)
  --ui-dir <dir>            built UI to serve at /ui/              (SMSGW_UI_DIR)
  --server-url <url>        fleet mode: a private server's device  (SMSGW_SERVER_URL)
                            API, e.g. https://sms.example.com/api/mobile/v1 (https:// unless loopback)
  --server-token <token>    fleet mode: its private key, or        (SMSGW_SERVER_TOKEN)
                            "Basic <login>:<password>", or "Code <one-time code>"
  --server-token-file <path>
                            the fleet token from a file            (SMSGW_SERVER_TOKEN_FILE)
  --backup <file>           copy the database of --data-dir to <file> and exit; safe while
                            the gateway runs (SQLite online backup)
  --reset-login             a lost password: give the stored login of --data-dir a new
                            password, print it once, end every token, and exit (stop the
                            gateway first)
  mcp                       an MCP server on stdin/stdout for a desktop AI agent, passing
                            each call to the running gateway at --listen (docs/mcp.md)
  --mcp-token <token>       mcp: an access token holding mcp:use,  (SMSGW_MCP_TOKEN)
                            or an app's <name>:<password>
  --mcp-token-file <path>   mcp: the token from a file             (SMSGW_MCP_TOKEN_FILE)
  -h, --help                show this help
  -v, --version             print the version

With no --modem the gateway probes the serial ports for a modem that answers AT; when none
answers it starts a simulated modem and says so.

Every user of this computer can read a command line (ps): give the password, the SIM PIN and
the fleet token with a -file flag (a file only you can read; one trailing line break is
ignored) or in the environment, not as --password, --sim-pin or --server-token.
`;

export type CommandLine =
  | { kind: 'run'; options: GatewayOptions }
  | { kind: 'backup'; dataDir: string; target: string }
  | { kind: 'reset-login'; dataDir: string }
  | { kind: 'mcp'; gatewayUrl: string; authorization: string }
  | { kind: 'help' }
  | { kind: 'version' };

/** Throws GatewayError(ConfigInvalid) with a message fit for the terminal. */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CommandLine {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (error) {
    throw new GatewayError(ErrorCode.ConfigInvalid, error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const options = defaultOptions();
  const listen = values.listen ?? env.SMSGW_LISTEN;
  if (listen !== undefined) options.listen = parseListen(listen);
  const dataDir = values['data-dir'] ?? env.SMSGW_DATA_DIR;
  if (dataDir !== undefined) options.dataDir = dataDir;
  if (values.backup !== undefined) {
    if (values.backup.trim() === '') invalid('backup', 'needs a file name');
    return { kind: 'backup', dataDir: options.dataDir, target: values.backup };
  }
  if (values['reset-login']) return { kind: 'reset-login', dataDir: options.dataDir };
  if (positionals[0] === 'mcp') return mcpCommand(values, positionals.slice(1), env, options.listen);
  const modems = values.modem ?? splitList(env.SMSGW_MODEMS);
  options.modems = modems.map(parseModem);
  options.hilinks = values.hilink ?? splitList(env.SMSGW_HILINK);
  options.phones = values.phone ?? splitList(env.SMSGW_PHONES);
  const adbPath = values.adb ?? env.SMSGW_ADB;
  if (adbPath) options.adbPath = adbPath;
  options.simulatedModems = parseSimulate(values.simulate, positionals, env.SMSGW_SIMULATE);
  options.probeSerialPorts = !(values['no-probe'] || isTrue(env.SMSGW_NO_PROBE));
  const username = values.username ?? env.SMSGW_USERNAME;
  if (username !== undefined) options.username = username;
  const password = secret(values, env, 'password', 'SMSGW_PASSWORD');
  if (password !== undefined) options.password = password;
  const simPin = secret(values, env, 'sim-pin', 'SMSGW_SIM_PIN');
  if (simPin !== undefined) options.simPin = simPin;
  const level = values['log-level'] ?? env.SMSGW_LOG_LEVEL;
  if (level !== undefined) {
    const levels = parseLogLevels(level);
    if (levels.level) options.logLevel = levels.level;
    options.moduleLogLevels = levels.modules;
  }
  options.allowedHosts = values['allow-host'] ?? splitList(env.SMSGW_ALLOW_HOSTS);
  options.corsOrigins = values['cors-origin'] ?? splitList(env.SMSGW_CORS_ORIGINS);
  const maxPending = values['max-pending'] ?? env.SMSGW_MAX_PENDING;
  if (maxPending !== undefined) options.maxPendingMessages = parseInteger('max-pending', maxPending);
  const threadIdle = values['db-thread-idle'] ?? env.SMSGW_DB_THREAD_IDLE_MS;
  if (threadIdle !== undefined) options.dbThreadIdleMs = parseInteger('db-thread-idle', threadIdle);
  options.resendInterrupted = Boolean(values['resend-interrupted']) || isTrue(env.SMSGW_RESEND_INTERRUPTED);
  options.showPdus = Boolean(values['show-pdus']) || isTrue(env.SMSGW_SHOW_PDUS);
  const uiDirectory = values['ui-dir'] ?? env.SMSGW_UI_DIR;
  if (uiDirectory !== undefined) options.uiDirectory = uiDirectory;
  const serverUrl = values['server-url'] ?? env.SMSGW_SERVER_URL;
  const serverToken = secret(values, env, 'server-token', 'SMSGW_SERVER_TOKEN');
  if ((serverUrl === undefined) !== (serverToken === undefined)) {
    invalid(
      serverUrl === undefined ? 'server-url' : 'server-token',
      'give both --server-url and --server-token',
    );
  }
  if (serverUrl !== undefined && serverToken !== undefined) {
    options.fleetServer = { url: serverUrl, token: serverToken };
  }
  return { kind: 'run', options: checkOptions(options) };
}

/** Every flag the gateway takes; the desktop app hands the core only these (electron/coreArguments.ts). */
export const commandLineFlags = {
  listen: { type: 'string' },
  'data-dir': { type: 'string' },
  modem: { type: 'string', multiple: true },
  hilink: { type: 'string', multiple: true },
  phone: { type: 'string', multiple: true },
  adb: { type: 'string' },
  simulate: { type: 'boolean' },
  'no-probe': { type: 'boolean' },
  username: { type: 'string' },
  password: { type: 'string' },
  'password-file': { type: 'string' },
  'sim-pin': { type: 'string' },
  'sim-pin-file': { type: 'string' },
  'log-level': { type: 'string' },
  'show-pdus': { type: 'boolean' },
  'allow-host': { type: 'string', multiple: true },
  'cors-origin': { type: 'string', multiple: true },
  'max-pending': { type: 'string' },
  'resend-interrupted': { type: 'boolean' },
  'db-thread-idle': { type: 'string' },
  'ui-dir': { type: 'string' },
  'server-url': { type: 'string' },
  'server-token': { type: 'string' },
  'server-token-file': { type: 'string' },
  backup: { type: 'string' },
  'reset-login': { type: 'boolean' },
  'mcp-token': { type: 'string' },
  'mcp-token-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

function parseFlags(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: commandLineFlags });
}

type SecretFlag = 'password' | 'sim-pin' | 'server-token' | 'mcp-token';

/**
 * `mcp`: the stdio bridge to the gateway listening at `listen`. Its credentials are an access
 * token, or an app's login (`name:password`), which never expires as a token does.
 */
function mcpCommand(
  values: ReturnType<typeof parseFlags>['values'],
  rest: readonly string[],
  env: NodeJS.ProcessEnv,
  listen: GatewayOptions['listen'],
): CommandLine {
  if (rest.length > 0) invalid('mcp', `unexpected arguments: ${rest.join(' ')}`);
  const token = secret(values, env, 'mcp-token', 'SMSGW_MCP_TOKEN')?.trim();
  if (!token) invalid('mcp-token', 'mcp needs --mcp-token-file or SMSGW_MCP_TOKEN: a token holding mcp:use');
  const separator = token.indexOf(':');
  const authorization =
    separator > 0 && !token.includes('.')
      ? `Basic ${Buffer.from(token).toString('base64')}`
      : `Bearer ${token.replace(/^Bearer\s+/i, '')}`;
  return { kind: 'mcp', gatewayUrl: localUrlOf(listen), authorization };
}

/**
 * A secret from its flag, its -file flag, its variable or its _FILE variable, flags first. A
 * flag's value is in the command line every user can read (ps); a file or the environment is
 * not. Both forms of one source at once are refused rather than one silently chosen.
 */
function secret(
  values: ReturnType<typeof parseFlags>['values'],
  env: NodeJS.ProcessEnv,
  flag: SecretFlag,
  variable: string,
): string | undefined {
  const fileFlag = `${flag}-file` as const;
  const given = values[flag];
  const file = values[fileFlag];
  if (given !== undefined && file !== undefined)
    invalid(fileFlag, `give --${flag} or --${fileFlag}, not both`);
  if (given !== undefined) return given;
  if (file !== undefined) return readSecretFile(fileFlag, file);
  const fromEnv = env[variable];
  const envFile = env[`${variable}_FILE`];
  if (fromEnv !== undefined && envFile !== undefined) {
    invalid(fileFlag, `set ${variable} or ${variable}_FILE, not both`);
  }
  if (fromEnv !== undefined) return fromEnv;
  return envFile === undefined ? undefined : readSecretFile(fileFlag, envFile);
}

/** The file's text without one trailing line break, which editors and `echo` add. */
function readSecretFile(field: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    invalid(field, `cannot read ${path} (${reason})`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') invalid(field, `${path} is empty`);
  return value;
}

function invalid(field: string, message: string): never {
  throw new GatewayError(ErrorCode.ConfigInvalid, `--${field}: ${message}`, { field });
}

/**
 * `DEBUG`, `at=DEBUG,scheduler=INFO`, or both: `INFO,at=DEBUG`. A module name may hold colons
 * (`at:/dev/ttyUSB0=DEBUG`): the level follows the last `=`.
 */
function parseLogLevels(value: string): { level?: LogLevel; modules: Record<string, LogLevel> } {
  const result: { level?: LogLevel; modules: Record<string, LogLevel> } = { modules: {} };
  const levelOf = (text: string) =>
    parseLogLevel(text.trim()) ??
    invalid('log-level', `"${text.trim()}" is not one of DEBUG, INFO, WARN, ERROR`);
  for (const item of value.split(',').map((part) => part.trim())) {
    if (item === '') invalid('log-level', `"${value}" has an empty entry`);
    const equals = item.lastIndexOf('=');
    if (equals === -1) {
      if (result.level !== undefined) invalid('log-level', `"${value}" names the default level twice`);
      result.level = levelOf(item);
      continue;
    }
    const module = item.slice(0, equals).trim();
    if (module === '') invalid('log-level', `"${item}" names no module`);
    result.modules[module] = levelOf(item.slice(equals + 1));
  }
  return result;
}

function parseListen(value: string): GatewayOptions['listen'] {
  // "[::1]:8080", "0.0.0.0:8080", "8080" (port only keeps the loopback host).
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value.trim());
  if (!match?.[2]) invalid('listen', `"${value}" is not <host:port>, e.g. 127.0.0.1:8080`);
  const port = Number(match[2]);
  if (port > 65_535) invalid('listen', `port ${port} is not 0..65535`);
  const host = match[1]?.replace(/^\[|\]$/g, '') ?? '127.0.0.1';
  return { host, port };
}

function parseModem(value: string): SerialModemOption {
  // A serial-over-IP server (ser2net, a network modem): its ":<port>" is no baud, and checkOptions
  // checks the address.
  if (isTcpAddress(value.trim())) return { path: value.trim(), baudRate: 115_200 };
  // Windows port names ("COM3") and paths with colons are rare; only a trailing ":<digits>" is a baud.
  const match = /^(.*?)(?::(\d+))?$/.exec(value.trim());
  const path = match?.[1] ?? '';
  if (path === '') invalid('modem', `"${value}" is not <path>[:<baud>]`);
  return { path, baudRate: match?.[2] ? Number(match[2]) : 115_200 };
}

function parseSimulate(flag: boolean | undefined, positionals: string[], env: string | undefined): number {
  if (flag) {
    // `--simulate 3`: parseArgs leaves the count as a positional.
    const [count, ...rest] = positionals;
    if (rest.length > 0) invalid('simulate', `unexpected arguments: ${rest.join(' ')}`);
    return count === undefined ? 1 : parseInteger('simulate', count);
  }
  if (positionals.length > 0) invalid('simulate', `unexpected arguments: ${positionals.join(' ')}`);
  if (env === undefined || env === '' || env === '0' || env.toLowerCase() === 'false') return 0;
  return isTrue(env) ? 1 : parseInteger('simulate', env);
}

function parseInteger(field: string, value: string): number {
  if (!/^\d+$/.test(value.trim())) invalid(field, `"${value}" is not a whole number`);
  return Number(value);
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}
