import type { Clock, TimerHandle } from '../clock/clock.js';
import { describeError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import type { SerialPortInfo } from '../transport/portDiscovery.js';

export interface PortWatcherDeps {
  listPorts: () => Promise<SerialPortInfo[]>;
  /** Probes ports not in use yet; returns how many modems were added. */
  discover: () => Promise<number>;
  clock: Clock;
  logger: Logger;
  /** How often the port list is read. Default 10 s. */
  intervalMs?: number;
}

/**
 * Finds a modem plugged in after start: the port list is read every few seconds, and only when
 * a port path appears that was not there before are ports probed with `AT`. Ports that never
 * answered are not poked again and again (a GPS or a PLC on a serial port should be left alone).
 */
export function watchForNewPorts(deps: PortWatcherDeps, initialPorts: readonly string[]): () => void {
  const logger = deps.logger.child('ports');
  let known = new Set(initialPorts);
  let timer: TimerHandle | undefined;
  let stopped = false;

  const check = async () => {
    const ports = (await deps.listPorts()).map((port) => port.path);
    const appeared = ports.filter((path) => !known.has(path));
    known = new Set(ports);
    if (appeared.length === 0) return;
    logger.info('new serial ports appeared; probing for modems', { ports: appeared });
    const added = await deps.discover();
    if (added > 0) logger.info(`${added} modem(s) added`);
  };
  const schedule = () => {
    timer = deps.clock.setTimer(() => {
      if (stopped) return;
      check()
        .catch((error) => logger.warn('could not scan serial ports', { error: describeError(error) }))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, deps.intervalMs ?? 10_000);
  };
  schedule();
  return () => {
    stopped = true;
    timer?.cancel();
  };
}
