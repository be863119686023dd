import { ErrorCode, GatewayError } from '../errors/gatewayError.js';

/**
 * Where the phone's app listens and how to log in: `http://sms:PASSWORD@192.168.1.20:8080`.
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
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        'the phone address must start with http:// or https://',
        { field },
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
      parsed.origin,
      decodeURIComponent(parsed.username || 'sms'),
      decodeURIComponent(parsed.password),
    );
  }

  static of(url: string, username: string, password: string): PhoneAddress {
    const parsed = PhoneAddress.parse(url.replace(/^(https?:\/\/)/, '$1x:x@'));
    return new PhoneAddress(parsed.url, username, password);
  }

  /** The same phone reached at another origin (a new adb forward after a replug). */
  at(url: string): PhoneAddress {
    return new PhoneAddress(new URL(url).origin, this.username, this.password);
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
