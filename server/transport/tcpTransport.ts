/**
 * A Transport over TCP: network modems and serial servers (ser2net, RFC 2217 boxes in raw
 * mode). Each transport owns one socket; reconnecting means building a new transport.
 */
import { EventEmitter } from 'node:events';
import { createConnection, type Socket } from 'node:net';
import { describeError, ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { TcpAddress } from './tcpAddress.js';
import type { Transport } from './transport.js';

export function createTcpTransport(options: TcpAddress): Transport {
  return new TcpTransport(options.host, options.port);
}

class TcpTransport implements Transport {
  readonly description: string;
  private readonly events = new EventEmitter();
  private socket?: Socket;
  private open_ = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {
    this.description = `tcp://${host}:${port}`;
  }

  get isOpen(): boolean {
    return this.open_;
  }

  open(): Promise<void> {
    if (this.socket)
      return Promise.reject(
        new GatewayError(ErrorCode.TransportOpenFailed, `${this.description} was already opened`),
      );
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: this.host, port: this.port });
      this.socket = socket;
      const failOpen = (error: Error) => {
        socket.destroy();
        reject(
          new GatewayError(
            ErrorCode.TransportOpenFailed,
            `cannot connect to ${this.description}: ${error.message}`,
            {
              cause: error,
            },
          ),
        );
      };
      socket.once('error', failOpen);
      socket.once('connect', () => {
        socket.off('error', failOpen);
        // AT traffic is small request/response lines: send each one at once.
        socket.setNoDelay(true);
        this.open_ = true;
        let lastError: Error | undefined;
        socket.on('data', (chunk: Buffer) => this.events.emit('data', chunk));
        socket.on('error', (error: Error) => {
          lastError = error;
        });
        socket.on('close', () => {
          this.closed(lastError ?? new Error('connection closed by the peer'));
        });
        resolve();
      });
    });
  }

  write(data: string | Uint8Array): Promise<void> {
    const socket = this.socket;
    if (!this.open_ || !socket) {
      return Promise.reject(new GatewayError(ErrorCode.TransportClosed, `${this.description} is closed`));
    }
    const chunk = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
    return new Promise((resolve, reject) => {
      socket.write(chunk, (error) => {
        if (error) {
          reject(
            new GatewayError(
              ErrorCode.TransportClosed,
              `${this.description} write failed: ${describeError(error)}`,
              {
                cause: error,
              },
            ),
          );
        } else {
          resolve();
        }
      });
    });
  }

  close(): Promise<void> {
    const socket = this.socket;
    if (!this.open_ || !socket) return Promise.resolve();
    // Our own close is reported without an error, before the socket's 'close' event.
    this.closed(undefined);
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      // Flush what was written, then drop the socket without waiting for the peer's FIN.
      socket.end(() => socket.destroy());
    });
  }

  onData(listener: (chunk: Buffer) => void): () => void {
    this.events.on('data', listener);
    return () => this.events.off('data', listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.events.on('close', listener);
    return () => this.events.off('close', listener);
  }

  private closed(error: Error | undefined): void {
    if (!this.open_) return;
    this.open_ = false;
    this.events.emit(
      'close',
      error === undefined
        ? undefined
        : new GatewayError(ErrorCode.TransportClosed, `${this.description} closed: ${error.message}`, {
            cause: error,
          }),
    );
  }
}
