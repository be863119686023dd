/**
 * A Transport over node-serialport: real USB modems, and ptys in tests. The port is built with
 * autoOpen false so opening is an awaited step with a typed error, and a fresh SerialPort is
 * made per transport (a reopened port is a new object, see TransportFactory).
 */
import { SerialPortStream } from '@serialport/stream';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { hangupAwareBinding } from './hangupAwareBinding.js';
import type { Transport } from './transport.js';
import { TransportBase } from './transportBase.js';

export interface SerialTransportOptions {
  path: string;
  /** Most USB modems ignore it (CDC-ACM); physical UARTs need the right one. Default 115 200. */
  baudRate?: number;
}

export function createSerialTransport(options: SerialTransportOptions): Transport {
  return new SerialTransport(options.path, options.baudRate ?? 115_200);
}

/** One wrapped binding for every port: it only replaces each opened port's read. */
const binding = hangupAwareBinding();

class SerialTransport extends TransportBase {
  private readonly port: SerialPortStream;
  /** A background error that made us close the port: the reason reported with 'close'. */
  private failure?: Error;

  constructor(
    readonly description: string,
    baudRate: number,
  ) {
    super();
    this.port = new SerialPortStream({ binding, path: description, baudRate, autoOpen: false });
    this.port.on('data', (chunk: Buffer) => this.deliver(chunk));
    // serialport emits 'close' with a DisconnectedError (disconnected: true) when the device
    // vanishes (USB unplug, pty master gone), and with null after our own close().
    this.port.on('close', (error: Error | null) => this.wentAway(error ?? this.failure));
    // Errors outside a callback (a failed background read) end the session like an unplug.
    this.port.on('error', (error: Error) => {
      this.failure = error;
      if (this.port.isOpen) this.port.close();
      else this.wentAway(error);
    });
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.port.open((error) => {
        if (error) {
          reject(
            new GatewayError(openFailureCode(error), `cannot open ${this.description}: ${error.message}`, {
              cause: error,
            }),
          );
          return;
        }
        this.markOpen();
        resolve();
      });
    });
  }

  write(data: string | Uint8Array): Promise<void> {
    if (!this.isOpen) return Promise.reject(this.closedError('is closed'));
    const chunk = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
    return new Promise((resolve, reject) => {
      this.port.write(chunk, (error) => {
        if (error) reject(this.closedError('write failed', error));
        else resolve();
      });
    });
  }

  close(): Promise<void> {
    if (!this.isOpen || !this.port.isOpen) {
      this.markClosed();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // serialport calls back after it emitted 'close'; a failed close still leaves us closed.
      this.port.close(() => {
        this.markClosed();
        resolve();
      });
    });
  }

  /** The device vanished or failed: reported once, with the reason. */
  private wentAway(error: Error | undefined): void {
    this.markClosed(error === undefined ? undefined : this.closedError('went away', error));
  }
}

/**
 * The binding says why an open failed only in words: strerror(errno) on POSIX ("Error:
 * Permission denied, cannot open /dev/ttyUSB0", serialport/bindings-cpp src/serialport_unix.cpp
 * Open) and "Access denied" for ERROR_ACCESS_DENIED on Windows (src/serialport_win.cpp
 * ErrorCodeToString). Read here, where the text enters, so that the rest sees a code.
 */
export function openFailureCode(
  error: Error,
): typeof ErrorCode.TransportAccessDenied | typeof ErrorCode.TransportOpenFailed {
  return /Permission denied|Access denied|EACCES/i.test(error.message)
    ? ErrorCode.TransportAccessDenied
    : ErrorCode.TransportOpenFailed;
}
