import { EventEmitter } from 'node:events';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Transport } from './transport.js';

/**
 * What every transport shares: its data and close listeners, and the open flag that makes the
 * close reported exactly once, whichever comes first of our own `close()`, the far end going
 * away and a background failure. A kind adds how it opens, writes and closes.
 */
export abstract class TransportBase implements Transport {
  abstract readonly description: string;
  private readonly events = new EventEmitter();
  private open_ = false;

  get isOpen(): boolean {
    return this.open_;
  }

  abstract open(): Promise<void>;
  abstract write(data: string | Uint8Array): Promise<void>;
  abstract close(): Promise<void>;

  onData(listener: (chunk: Buffer) => void): () => void {
    this.events.on('data', listener);
    return () => this.events.off('data', listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.events.on('close', listener);
    return () => this.events.off('close', listener);
  }

  protected markOpen(): void {
    this.open_ = true;
  }

  protected deliver(chunk: Buffer): void {
    this.events.emit('data', chunk);
  }

  /** Reports the close once: without an error for our own, with the reason otherwise. */
  protected markClosed(error?: Error): void {
    if (!this.open_) return;
    this.open_ = false;
    this.events.emit('close', error);
  }

  /** TransportClosed naming this transport, `what` happened and the underlying cause. */
  protected closedError(what: string, cause?: Error): GatewayError {
    return new GatewayError(
      ErrorCode.TransportClosed,
      `${this.description} ${what}${cause ? `: ${cause.message}` : ''}`,
      cause ? { cause } : {},
    );
  }
}
