import type { Clock } from '../clock/clock.js';
import { isTcpAddress, parseTcpAddress } from '../contract/domain/tcpAddress.js';
import { probeForModem } from '../devices/pool/modemProbe.js';
import type { SerialAccess } from '../devices/pool/serialModemSource.js';
import { withOpenTimeout } from '../devices/transport/openTimeout.js';
import { listSerialPorts } from '../devices/transport/portDiscovery.js';
import { createSerialTransport } from '../devices/transport/serialTransport.js';
import { createTcpTransport } from '../devices/transport/tcpTransport.js';
import type { Transport } from '../devices/transport/transport.js';
import type { Logger } from '../logging/logger.js';

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
