import type { Clock } from '../clock/clock.js';
import { probeForModem } from '../devices/modemProbe.js';
import type { SerialAccess } from '../devices/serialModemSource.js';
import { isTcpAddress, parseTcpAddress } from '../domain/tcpAddress.js';
import type { Logger } from '../logging/logger.js';
import { withOpenTimeout } from '../transport/openTimeout.js';
import { listSerialPorts } from '../transport/portDiscovery.js';
import { createSerialTransport } from '../transport/serialTransport.js';
import { createTcpTransport } from '../transport/tcpTransport.js';
import type { Transport } from '../transport/transport.js';

/** A USB or UART port opens in milliseconds; a Bluetooth COM port may block for good. */
const OPEN_TIMEOUT_MS = 5_000;

/**
 * Real serial ports through node-serialport, and `tcp://` serial servers over a socket: what the
 * modem pool uses outside tests.
 */
export function realSerialAccess(clock: Clock, logger: Logger): SerialAccess {
  return {
    listPorts: () => listSerialPorts({ logger }),
    createTransport: (port) => withOpenTimeout(transportFor(port), clock, OPEN_TIMEOUT_MS),
    probe: (factory) => probeForModem(factory, { timeoutMs: 1_000, attempts: 3, clock, logger }),
  };
}

/** `--modem tcp://host:port` is a socket to a serial server; any other path a serial port. */
function transportFor(port: { path: string; baudRate: number }): Transport {
  const tcp = isTcpAddress(port.path) ? parseTcpAddress(port.path) : undefined;
  return tcp ? createTcpTransport(tcp) : createSerialTransport(port);
}
