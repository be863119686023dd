import { systemClock } from '../../server/clock/clock.js';
import { AtSession } from '../../server/devices/at/atSession.js';
import { ModemDriver, type ModemDriverOptions } from '../../server/devices/modem/modemDriver.js';
import type { ModemSource } from '../../server/devices/pool/serialModemSource.js';
import { silentLogger } from '../../server/logging/logger.js';

/**
 * The pool's driver factory for tests on real ports (ptys, sockets): the AT modem driver on the
 * system clock, its sinks dropping what they get unless the test hands its own.
 */
export function realTimeDrivers(
  options: Partial<Pick<ModemDriverOptions, 'receive' | 'onDeliveryReport' | 'timing'>> = {},
): (source: ModemSource) => ModemDriver {
  return (source) =>
    new ModemDriver({
      source,
      clock: systemClock,
      logger: silentLogger,
      createSession: (transport) => new AtSession(transport, { clock: systemClock, logger: silentLogger }),
      receive: options.receive ?? (async () => undefined),
      onDeliveryReport: options.onDeliveryReport ?? (async () => true),
      ...(options.timing ? { timing: options.timing } : {}),
    });
}
