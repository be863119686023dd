import type { Clock, TimerHandle } from '../../clock/clock.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { SerialPortInfo } from '../transport/portDiscovery.js';

export interface PortProbingDeps {
  listPorts: () => Promise<SerialPortInfo[]>;
  /** Probes these ports for a modem (skipping ports in use); resolves with those that stayed silent. */
  probe: (ports: SerialPortInfo[]) => Promise<SerialPortInfo[]>;
  /** Told the paths of ports that left the list (unplugged). */
  vanished?: (paths: string[]) => void;
  clock: Clock;
  logger: Logger;
  /** How often the port list is read, ms. Default 10 000. */
  intervalMs?: number;
  /**
   * Delays before probing a silent port again, ms, one per retry. Default 2, 4, 8 and 16 s:
   * Quectel EC2x and SIMCom SIM7600 answer AT only 10 s or more after their ports appear.
   */
  retryDelaysMs?: readonly number[];
}

export interface PortProbing {
  /** Resolves once every port present at start was probed once. */
  readonly firstRound: Promise<void>;
  stop(): void;
}

interface Appearance {
  port: SerialPortInfo;
  retries: number;
  timer?: TimerHandle;
}

const defaultRetryDelaysMs = [2_000, 4_000, 8_000, 16_000];

/**
 * Finds modems in the background: the API listens meanwhile. Each port is probed once per
 * appearance (a port that vanishes and comes back is new again), a silent one again with
 * back-off for a slow-booting modem, and never because another port arrived: a GPS receiver or
 * a PLC on a serial port is not poked with `AT` again and again. Probes run one at a time.
 */
export function startPortProbing(deps: PortProbingDeps): PortProbing {
  const logger = deps.logger.child('ports');
  const retryDelays = deps.retryDelaysMs ?? defaultRetryDelaysMs;
  const present = new Map<string, Appearance>();
  let probing: Promise<void> = Promise.resolve();
  let scanTimer: TimerHandle | undefined;
  let stopped = false;

  const probe = (appearances: Appearance[]): Promise<void> => {
    probing = probing.then(async () => {
      const current = appearances.filter((appearance) => present.get(appearance.port.path) === appearance);
      if (stopped || current.length === 0) return;
      const silent = new Set(
        (await deps.probe(current.map((appearance) => appearance.port))).map((port) => port.path),
      );
      for (const appearance of current) {
        if (silent.has(appearance.port.path)) retryLater(appearance);
      }
    });
    probing = probing.catch((error: unknown) =>
      logger.warn('probing serial ports failed', { error: describeError(error) }),
    );
    return probing;
  };

  const retryLater = (appearance: Appearance) => {
    const delay = retryDelays[appearance.retries];
    if (delay === undefined || stopped) {
      logger.debug('port stays silent; not probed again until it reappears', { port: appearance.port.path });
      return;
    }
    appearance.retries++;
    appearance.timer = deps.clock.setTimer(() => {
      appearance.timer = undefined;
      void probe([appearance]);
    }, delay);
  };

  const scan = async (): Promise<void> => {
    const ports = await deps.listPorts();
    const paths = new Set(ports.map((port) => port.path));
    const gone: string[] = [];
    for (const [path, appearance] of present) {
      if (paths.has(path)) continue;
      appearance.timer?.cancel();
      present.delete(path);
      gone.push(path);
    }
    if (gone.length > 0) deps.vanished?.(gone);
    const appeared = ports
      .filter((port) => !present.has(port.path))
      .map((port): Appearance => ({ port, retries: 0 }));
    for (const appearance of appeared) present.set(appearance.port.path, appearance);
    if (appeared.length === 0) return;
    logger.info('probing serial ports for modems', {
      ports: appeared.map((appearance) => appearance.port.path),
    });
    await probe(appeared);
  };

  const schedule = () => {
    scanTimer = deps.clock.setTimer(() => {
      if (stopped) return;
      scan()
        .catch((error: unknown) =>
          logger.warn('could not list serial ports', { error: describeError(error) }),
        )
        .finally(() => {
          if (!stopped) schedule();
        });
    }, deps.intervalMs ?? 10_000);
  };

  const firstRound = scan().catch((error: unknown) =>
    logger.warn('could not list serial ports', { error: describeError(error) }),
  );
  void firstRound.finally(() => {
    if (!stopped) schedule();
  });

  return {
    firstRound,
    stop() {
      stopped = true;
      scanTimer?.cancel();
      for (const appearance of present.values()) appearance.timer?.cancel();
    },
  };
}
