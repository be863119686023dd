import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { SerialAccess } from '../modem/serialModemSource.js';
import { listSerialPorts, probeForModem } from '../transport/portDiscovery.js';
import { createSerialTransport } from '../transport/serialTransport.js';

/** Real serial ports through node-serialport: what the modem pool uses outside tests. */
export function realSerialAccess(clock: Clock, logger: Logger): SerialAccess {
  return {
    listPorts: () => listSerialPorts({ logger }),
    createTransport: (port) => createSerialTransport(port),
    probe: (factory) => probeForModem(factory, { timeoutMs: 1_500, clock, logger }),
  };
}
