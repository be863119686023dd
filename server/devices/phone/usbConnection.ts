import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { type Adb, adbAdvice } from './adb.js';

/** The app's Local server port (modules/localserver/LocalServerSettings.kt default). */
export const appPort = 8080;

export interface PhoneConnection {
  /** Where the app answers now, e.g. http://127.0.0.1:41234 (an adb forward). */
  url: string;
}

/**
 * A phone on USB through adb: a local port forwarded to the app, and our own port reversed so
 * the phone reaches us as http://127.0.0.1:N (the app accepts plain http only for 127.0.0.1,
 * modules/webhooks/WebHooksService.kt). Forwards die with a replug, an adb server restart or a
 * reboot: `connect` is run again whenever the phone stops answering.
 */
export class UsbConnection {
  private forwardedPort?: number;

  constructor(
    private readonly adb: Adb,
    readonly serial: string,
  ) {}

  async connect(): Promise<PhoneConnection> {
    const device = (await this.adb.devices()).find((candidate) => candidate.serial === this.serial);
    if (!device) {
      throw new GatewayError(
        ErrorCode.PhoneUnreachable,
        `The phone ${this.serial} is not plugged in (adb does not list it). Plug it in by USB with USB debugging on.`,
      );
    }
    const advice = adbAdvice(device.state);
    if (advice)
      throw new GatewayError(
        ErrorCode.PhoneUnreachable,
        `The phone ${this.serial} is ${device.state}: ${advice}`,
      );
    await this.release();
    this.forwardedPort = await this.adb.forward(this.serial, appPort);
    return { url: `http://127.0.0.1:${this.forwardedPort}` };
  }

  /** The phone's 127.0.0.1:`port` reaches this computer's `port` (the gateway's API). */
  async reverse(port: number): Promise<void> {
    await this.adb.reverse(this.serial, port, port);
  }

  async release(): Promise<void> {
    const port = this.forwardedPort;
    if (port === undefined) return;
    this.forwardedPort = undefined;
    await this.adb.removeForward(this.serial, port).catch(() => undefined);
  }
}
