/**
 * A Transport over TCP: network modems and serial servers (ser2net, RFC 2217 boxes in raw
 * mode). Each transport owns one socket; reconnecting means building a new transport.
 */
import { createConnection, type Socket } from 'node:net';
import type { TcpAddress } from '../../contract/domain/tcpAddress.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Transport } from './transport.js';
import { TransportBase } from './transportBase.js';

export function createTcpTransport(options: TcpAddress): Transport {
  return new TcpTransport(options.host, options.port);
}

class TcpTransport extends TransportBase {
  readonly description: string;
  private socket?: Socket;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {
    super();
    this.description = `tcp://${host}:${port}`;
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
        this.markOpen();
        let lastError: Error | undefined;
        socket.on('data', (chunk: Buffer) => this.deliver(chunk));
        socket.on('error', (error: Error) => {
          lastError = error;
        });
        socket.on('close', () => {
          this.markClosed(
            this.closedError('closed', lastError ?? new Error('connection closed by the peer')),
          );
        });
        resolve();
      });
    });
  }

  write(data: string | Uint8Array): Promise<void> {
    const socket = this.socket;
    if (!this.isOpen || !socket) return Promise.reject(this.closedError('is closed'));
    const chunk = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
    return new Promise((resolve, reject) => {
      socket.write(chunk, (error) => {
        if (error) reject(this.closedError('write failed', error));
        else resolve();
      });
    });
  }

  close(): Promise<void> {
    const socket = this.socket;
    if (!this.isOpen || !socket) return Promise.resolve();
    // Our own close is reported without an error, before the socket's 'close' event.
    this.markClosed();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      // Flush what was written, then drop the socket without waiting for the peer's FIN.
      socket.end(() => socket.destroy());
    });
  }
}
