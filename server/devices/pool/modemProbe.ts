/**
 * Whether a port holds a modem: `AT` until `OK`. Used by port discovery and the pool's scans;
 * it sits above the AT session it drives, not in transport/ under it.
 */

import { type Clock, systemClock } from '../../clock/clock.js';
import { ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import { type Logger, silentLogger } from '../../logging/logger.js';
import { AtSession } from '../at/atSession.js';
import { isPermissionRefusal, portPermissionError } from '../transport/portPermission.js';
import type { TransportFactory } from '../transport/transport.js';

export interface ProbeOptions {
  /** Wait for each `AT`, ms. */
  timeoutMs: number;
  /**
   * `AT` lines sent before giving up (default 3): an autobauding modem (SIM800, SIM900) locks
   * its rate on the first "AT" it sees and may only answer a later one.
   */
  attempts?: number;
  clock?: Clock;
  logger?: Logger;
}

/**
 * Opens a transport, sends `AT` until `OK` comes back or the attempts are spent. True only for a
 * modem that answered; a port that cannot open, stays silent or answers ERROR gives false, except
 * a port the OS refuses to this user: that rejects with TransportAccessDenied, which names the fix.
 * The transport is always closed.
 */
export async function probeForModem(factory: TransportFactory, options: ProbeOptions): Promise<boolean> {
  const logger = (options.logger ?? silentLogger).child('probe');
  const transport = factory();
  const session = new AtSession(transport, {
    clock: options.clock ?? systemClock,
    logger,
    defaultTimeoutMs: options.timeoutMs,
  });
  try {
    await session.open();
    for (let attempt = 1; ; attempt++) {
      try {
        await session.execute('AT');
        return true;
      } catch (error) {
        if (attempt >= (options.attempts ?? 3) || !isGatewayError(error, ErrorCode.AtTimeout)) throw error;
      }
    }
  } catch (error) {
    // Not "no modem": the user cannot open the port, and discovery must say how to fix it.
    if (isPermissionRefusal(error)) throw portPermissionError(transport.description, error);
    logger.debug('no modem answered', { port: transport.description, error });
    return false;
  } finally {
    await session.close();
    await transport.close();
  }
}
