import type { Clock } from '../../clock/clock.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Transport } from './transport.js';

/**
 * Bounds how long opening may take. Some ports never finish opening: a Bluetooth serial port on
 * Windows blocks until its paired device answers, a wedged USB interface until it is unplugged.
 * Past `timeoutMs` the open rejects with TransportOpenFailed; if the port opens later after all,
 * it is closed again, so nothing holds it.
 */
export function withOpenTimeout(transport: Transport, clock: Clock, timeoutMs: number): Transport {
  return {
    get description() {
      return transport.description;
    },
    get isOpen() {
      return transport.isOpen;
    },
    open: () =>
      new Promise<void>((resolve, reject) => {
        let timedOut = false;
        const timer = clock.setTimer(() => {
          timedOut = true;
          reject(
            new GatewayError(
              ErrorCode.TransportOpenFailed,
              `${transport.description} did not open within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        transport.open().then(
          () => {
            timer.cancel();
            if (timedOut) void transport.close().catch(() => undefined);
            else resolve();
          },
          (error: unknown) => {
            timer.cancel();
            reject(error);
          },
        );
      }),
    write: (data) => transport.write(data),
    close: () => transport.close(),
    onData: (listener) => transport.onData(listener),
    onClose: (listener) => transport.onClose(listener),
  };
}
