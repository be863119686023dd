import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * Where the phone's app listens and how to log in: `http://sms:PASSWORD@192.168.1.20:8080`, or
 * `adb://sms:PASSWORD@SERIAL` for a phone on USB (its URL is then an adb forward, `at()`).
 * The password lives only here and in the Authorization header: `url` and `toJSON` leave it out,
 * so a phone address that reaches a log record, an error text or an API answer carries none.
 */
export class PhoneAddress {
  private constructor(
    /** Origin without credentials, e.g. "http://192.168.1.20:8080". */
    readonly url: string,
    readonly username: string,
    private readonly password: string,
  ) {}

  /** Parses `http://user:password@host:port`; "sms" is the app's default user name. */
  static parse(text: string, field = 'phone'): PhoneAddress {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        'the phone address is not a URL like http://sms:PASSWORD@192.168.1.20:8080',
        { field },
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:' && parsed.protocol !== 'adb:') {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        'the phone address must start with http://, https:// or adb://',
        {
          field,
        },
      );
    }
    if (parsed.protocol === 'adb:' && !parsed.host) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        'a USB phone is named by its serial: adb://sms:PASSWORD@SERIAL',
        {
          field,
        },
      );
    }
    if (!parsed.password) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        "the phone address needs the app's user and password, like http://sms:PASSWORD@192.168.1.20:8080",
        { field },
      );
    }
    return new PhoneAddress(
      parsed.protocol === 'adb:' ? `adb://${parsed.host}` : parsed.origin,
      decodeURIComponent(parsed.username || 'sms'),
      decodeURIComponent(parsed.password),
    );
  }

  /** From a form's fields: where (http://host:port or adb://SERIAL), user and password. */
  static fromParts(where: string, username: string, password: string, field = 'url'): PhoneAddress {
    const scheme = /^(https?|adb):\/\/([^@/\s]+)\/?$/.exec(where.trim());
    if (!scheme?.[1] || !scheme[2]) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        'the phone address must look like http://192.168.1.20:8080',
        {
          field,
        },
      );
    }
    if (!password)
      throw new GatewayError(ErrorCode.ValidationFailed, "the app's password is missing", {
        field: 'password',
      });
    const base = PhoneAddress.parse(`${scheme[1]}://x:x@${scheme[2]}`, field);
    return new PhoneAddress(base.url, username || 'sms', password);
  }

  /** The same phone at the same origin with another login, to be checked before it is kept. */
  withLogin(username: string, password: string): PhoneAddress {
    return new PhoneAddress(this.url, username || 'sms', password);
  }

  /** The same phone reached at another origin (a new adb forward after a replug). */
  at(url: string): PhoneAddress {
    return new PhoneAddress(new URL(url).origin, this.username, this.password);
  }

  /** The adb serial of a USB phone; undefined for a phone on the network. */
  get adbSerial(): string | undefined {
    return this.url.startsWith('adb://') ? this.url.slice('adb://'.length) : undefined;
  }

  authorization(): string {
    return `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`;
  }

  /** A secret never leaves through JSON.stringify or a template string. */
  toJSON(): string {
    return this.url;
  }

  toString(): string {
    return this.url;
  }
}
