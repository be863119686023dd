import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Transport } from './transport.js';
import { TransportBase } from './transportBase.js';

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

export class MemoryEndpoint extends TransportBase {
  private peer?: MemoryEndpoint;

  constructor(readonly description: string) {
    super();
  }

  connect(peer: MemoryEndpoint): void {
    this.peer = peer;
  }

  async open(): Promise<void> {
    this.markOpen();
  }

  async write(data: string | Uint8Array): Promise<void> {
    if (!this.isOpen) throw this.closedError('is closed');
    const chunk = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
    const peer = this.peer;
    setImmediate(() => peer?.receive(chunk));
  }

  async close(): Promise<void> {
    this.shutdown();
  }

  /** Ends this side, telling listeners why. */
  shutdown(error?: Error): void {
    this.markClosed(error);
  }

  private receive(chunk: Buffer): void {
    if (this.isOpen) this.deliver(chunk);
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
