import { EventEmitter } from 'node:events';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Transport } from './transport.js';

/**
 * Two connected in-memory endpoints. The gateway gets `host`; a simulated modem gets `device`.
 * Bytes are delivered asynchronously (next macrotask), like a real port, so code cannot rely
 * on a reply arriving inside `write()`.
 */
export interface MemoryLink {
  host: Transport;
  device: MemoryEndpoint;
  /** Simulates yanking the cable: both ends see close with an error. */
  unplug(): void;
}

export class MemoryEndpoint implements Transport {
  private readonly events = new EventEmitter();
  private peer?: MemoryEndpoint;
  private open_ = false;

  constructor(readonly description: string) {}

  connect(peer: MemoryEndpoint): void {
    this.peer = peer;
  }

  get isOpen(): boolean {
    return this.open_;
  }

  async open(): Promise<void> {
    this.open_ = true;
  }

  async write(data: string | Uint8Array): Promise<void> {
    if (!this.open_) throw new GatewayError(ErrorCode.TransportClosed, `${this.description} is closed`);
    const chunk = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
    const peer = this.peer;
    setImmediate(() => peer?.receive(chunk));
  }

  async close(): Promise<void> {
    this.shutdown();
  }

  onData(listener: (chunk: Buffer) => void): () => void {
    this.events.on('data', listener);
    return () => this.events.off('data', listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.events.on('close', listener);
    return () => this.events.off('close', listener);
  }

  /** Ends this side, telling listeners why. */
  shutdown(error?: Error): void {
    if (!this.open_) return;
    this.open_ = false;
    this.events.emit('close', error);
  }

  private receive(chunk: Buffer): void {
    if (this.open_) this.events.emit('data', chunk);
  }
}

export function createMemoryLink(name: string): MemoryLink {
  const host = new MemoryEndpoint(name);
  const device = new MemoryEndpoint(`${name} (device side)`);
  host.connect(device);
  device.connect(host);
  return {
    host,
    device,
    unplug() {
      const error = new GatewayError(ErrorCode.TransportClosed, `${name} was unplugged`);
      host.shutdown(error);
      device.shutdown(error);
    },
  };
}
