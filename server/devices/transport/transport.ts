/**
 * The seam between the AT session and whatever carries its bytes (pattern: zwave-js's serial
 * stream factory). Implementations: `serialTransport` (node-serialport, real ports and ptys),
 * `tcpTransport` (network modems), `memoryTransport` (the built-in simulated modem in process).
 * The AT layer never knows which one it has.
 */
export interface Transport {
  /** Human-readable identity for logs, e.g. "/dev/ttyUSB2" or "simulated:1". */
  readonly description: string;
  open(): Promise<void>;
  write(data: string | Uint8Array): Promise<void>;
  /** Closing an already closed transport is a no-op. */
  close(): Promise<void>;
  readonly isOpen: boolean;
  /** Every chunk as it arrives, split anywhere. Returns an unsubscribe function. */
  onData(listener: (chunk: Buffer) => void): () => void;
  /** The far end went away (unplug, socket closed) or `close()` was called. */
  onClose(listener: (error?: Error) => void): () => void;
}

/** Builds a fresh transport for each (re)open: a reopened port is a new object. */
export type TransportFactory = () => Transport;
