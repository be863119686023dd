import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../logging/logger.js';
import type { ModemPool } from '../pool/modemPool.js';
import { startSimulatedModem } from './inProcessModem.js';
import type { SimulatedModem } from './simulatedModem.js';

export interface SimulatorRoster {
  /** `--simulate <n>` and the demo fallback: a simulated modem added to the pool. */
  add(): Promise<{ modem: SimulatedModem; deviceId: string }>;
  /** The built-in simulator on a pool port ("simulated:1"), for a simulated incoming SMS. */
  byPort(port: string): SimulatedModem | undefined;
  /**
   * The demo fallback: no modem configured, none found, none asked to be simulated. Starts one
   * (and says why) when the options allow a fallback, else only says how to go on.
   */
  fallBack(why: string): Promise<void>;
}

/**
 * The built-in simulated modems of a running gateway. `modems` is the host's list (the
 * `Gateway.simulatedModems` that tests and the demo read), kept current here.
 */
export function createSimulatorRoster(deps: {
  modems: SimulatedModem[];
  pool: ModemPool;
  /** True when the simulator may stand in for a missing modem (the headless try-out). */
  fallbackAllowed: boolean;
  /** Advice about a HiLink stick seen on this PC, shown instead of the generic hint. */
  hilinkAdvice: string | undefined;
  /** True once the gateway is stopping: nothing new is started. */
  stopping: () => boolean;
  clock: Clock;
  logger: Logger;
  /** Where the roster hands the stop of each modem it started. */
  stops: { add(stop: () => Promise<void>): void };
}): SimulatorRoster {
  const { modems, pool, logger } = deps;
  const byPort = new Map<string, SimulatedModem>();
  const add = async () => {
    const simulated = await startSimulatedModem(modems.length + 1, { clock: deps.clock, logger });
    modems.push(simulated.modem);
    byPort.set(simulated.source.port, simulated.modem);
    deps.stops.add(() => simulated.modem.stop());
    const member = await pool.addModem(simulated.source);
    return { modem: simulated.modem, deviceId: member.deviceId };
  };
  /** The simulator started only because no modem was found (not one asked for with --simulate). */
  let fallbackSimulator: { modem: SimulatedModem; deviceId: string } | undefined;
  // The simulator never takes a message meant for the real world once a real modem is there
  // (docs/decisions.md#the-simulator-is-a-demo), and with background probing a slow modem may
  // well turn up after it started.
  pool.onChange(() => {
    const retired = fallbackSimulator;
    if (
      !retired ||
      !pool.list().some((device) => !device.modem.simulated && device.modem.status === 'ready')
    ) {
      return;
    }
    fallbackSimulator = undefined;
    logger.info('A real modem is ready: the simulated modem started in its place is stopped.');
    void pool
      .forget(retired.deviceId)
      .then(() => retired.modem.stop())
      .then(() => {
        modems.splice(modems.indexOf(retired.modem), 1);
        for (const [port, modem] of byPort) {
          if (modem === retired.modem) byPort.delete(port);
        }
      })
      .catch((error: unknown) => logger.warn('could not stop the simulated modem', { error }));
  });
  const fallBack = async (why: string) => {
    if (deps.stopping() || pool.online().length > 0) return;
    if (!deps.fallbackAllowed) {
      // The desktop app: the simulator is the user's choice, never a silent stand-in.
      logger.warn(
        `${why}. Messages wait in the queue until a modem or phone is plugged in (it is found by itself), ` +
          'or until you choose the simulated modem.',
      );
      return;
    }
    logger.warn(
      `${why}: starting a SIMULATED modem. Messages will not reach real phones. ` +
        (deps.hilinkAdvice
          ? `${deps.hilinkAdvice}.`
          : 'Plug in a modem (it is found by itself), or start with --modem <port>.'),
    );
    fallbackSimulator = await add();
  };
  return { add, byPort: (port) => byPort.get(port), fallBack };
}
