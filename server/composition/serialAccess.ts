import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { SerialAccess } from '../modem/serialModemSource.js';
import { withOpenTimeout } from '../transport/openTimeout.js';
import { listSerialPorts, probeForModem } from '../transport/portDiscovery.js';
import { createSerialTransport } from '../transport/serialTransport.js';
import type { Transport } from '../transport/transport.js';

/** A USB or UART port opens in milliseconds; a Bluetooth COM port may block for good. */
const OPEN_TIMEOUT_MS = 5_000;

/** Real serial ports through node-serialport: what the modem pool uses outside tests. */
export function realSerialAccess(clock: Clock, logger: Logger): SerialAccess {
  return {
    listPorts: () => listSerialPorts({ logger }),
    createTransport: (port) =>
      cancellingPendingInput(withOpenTimeout(createSerialTransport(port), clock, OPEN_TIMEOUT_MS)),
    probe: (factory) => probeForModem(factory, { timeoutMs: 1_000, attempts: 3, clock, logger }),
  };
}

const ESC = '\x1b';

/**
 * A modem outlives the process that talks to it: if that process died (crash, `kill -9`, power
 * cut of the PC only) after `AT+CMGS=<n>` drew the `> ` prompt, the modem still collects PDU
 * characters and would swallow every command we send as part of the PDU, forever. ESC cancels
 * the edited message (TS 27.005 §3.5.1, answered with OK) and is ignored in command mode, where
 * characters before "AT" are discarded (V.250 §5.2.1); so it is written first on every open.
 */
export function cancellingPendingInput(transport: Transport): Transport {
  return {
    get description() {
      return transport.description;
    },
    get isOpen() {
      return transport.isOpen;
    },
    async open() {
      await transport.open();
      await transport.write(ESC);
    },
    write: (data) => transport.write(data),
    close: () => transport.close(),
    onData: (listener) => transport.onData(listener),
    onClose: (listener) => transport.onClose(listener),
  };
}
