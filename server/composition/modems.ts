import type { GatewayOptions } from '../config/options.js';
import { detectHiLinkAdapter, type HiLinkAdapter } from '../devices/hilink/hilinkDetection.js';
import { HiLinkModem } from '../devices/hilink/hilinkModem.js';
import { HiLinkSession } from '../devices/hilink/hilinkSession.js';
import { type NetworkModems, startNetworkModems } from '../devices/modem/networkModems.js';
import { type PhoneRegistry, type PhoneTiming, startPhones } from '../devices/phone/phoneRegistry.js';
import type { ModemPool } from '../devices/pool/modemPool.js';
import { startPortProbing } from '../devices/pool/portProbing.js';
import type { SerialAccess } from '../devices/pool/serialModemSource.js';
import type { SimulatedModem } from '../devices/simulator/simulatedModem.js';
import { createSimulatorRoster, type SimulatorRoster } from '../devices/simulator/simulatorRoster.js';
import { describeError } from '../errors/gatewayError.js';
import type { CompositionContext } from './context.js';
import type { MessageRecords } from './messaging.js';

export interface RunningModems {
  /** Adds a HiLink stick by its web API's URL (`--hilink`, the Modems screen). */
  addHiLink(url: string): ReturnType<ModemPool['addMember']>;
  /** Modems behind serial servers added by `tcp://host:port` on the Modems screen, kept for next starts. */
  networkModems: NetworkModems;
  /** A HiLink stick's network adapter seen on this PC at start, when none was configured. */
  hilinkAdapter: HiLinkAdapter | undefined;
  simulators: SimulatorRoster;
  phones: PhoneRegistry;
}

/**
 * Every kind of modem joins the pool: serial modems (configured ones now, probed ones
 * in the background), modems behind serial servers added before, HiLink sticks, Android phones
 * and simulated modems, and the simulated
 * fallback when nothing was named and nothing answers.
 */
export async function startModems(
  context: CompositionContext,
  deps: {
    options: Pick<
      GatewayOptions,
      | 'modems'
      | 'hilinks'
      | 'hilinkRequestTimeoutMs'
      | 'phones'
      | 'adbPath'
      | 'simulatedModems'
      | 'simulatorFallback'
      | 'probeSerialPorts'
    >;
    pool: ModemPool;
    serial: SerialAccess;
    records: MessageRecords;
    /** The host's list of built-in simulators (`Gateway.simulatedModems`). */
    simulatedModems: SimulatedModem[];
    detectHiLink: (() => HiLinkAdapter | undefined) | undefined;
    phoneTiming: PhoneTiming | undefined;
    stopping: () => boolean;
  },
): Promise<RunningModems> {
  const { clock, logger, stops } = context;
  const { options, pool, serial } = deps;
  const { inbox } = deps.records;
  stops.add(() => pool.stop());
  // The API answers whatever the modems do: configured ports come up in the background, side by
  // side; one still silent or booting holds up nothing.
  pool
    .start()
    .catch((error: unknown) =>
      logger.error('could not start the configured modems', { error: describeError(error) }),
    );
  const networkModems = await startNetworkModems({ storage: context.storage, pool, serial, logger });
  const addHiLink = (url: string) =>
    pool.addMember(
      new HiLinkModem({
        session: new HiLinkSession({ baseUrl: url, clock, timeoutMs: options.hilinkRequestTimeoutMs }),
        receive: (deviceId, simNumber, sms) => inbox.receive(deviceId, simNumber, sms),
        clock,
        logger,
      }),
    );
  for (const url of options.hilinks) {
    void addHiLink(url).catch((error: unknown) =>
      logger.error('could not add the HiLink stick', { url, error }),
    );
  }
  // A HiLink stick is a network adapter, invisible to serial probing: say so rather than
  // fall back to the simulator in silence.
  const hilinkAdapter =
    options.hilinks.length === 0 ? (deps.detectHiLink ?? detectHiLinkAdapter)() : undefined;
  const hilinkAdvice = hilinkAdapter
    ? `A Huawei HiLink stick seems connected (this PC has ${hilinkAdapter.address} on "${hilinkAdapter.interfaceName}"), ` +
      `but it has no AT port and is not in use: start with --hilink ${hilinkAdapter.url} or add it on the Modems screen`
    : undefined;
  if (hilinkAdvice) logger.warn(hilinkAdvice);
  const simulators = createSimulatorRoster({
    modems: deps.simulatedModems,
    pool,
    fallbackAllowed: options.simulatorFallback,
    hilinkAdvice,
    stopping: deps.stopping,
    clock,
    logger,
    stops,
  });
  const phones = await startPhones({
    urls: options.phones,
    adbPath: options.adbPath,
    pool,
    storage: context.storage,
    lifecycle: deps.records.lifecycle,
    receive: (deviceId, simNumber, sms) => inbox.receive(deviceId, simNumber, sms),
    clock,
    logger,
    announceFact: (fact) => context.facts.announce('gateway:fact', fact),
    ...(deps.phoneTiming ? { timing: deps.phoneTiming } : {}),
  });
  for (let index = 1; index <= options.simulatedModems; index++) await simulators.add();
  const noModemNamed =
    options.simulatedModems === 0 &&
    options.modems.length === 0 &&
    options.hilinks.length === 0 &&
    networkModems.addresses.length === 0 &&
    phones.phones.length === 0;
  if (options.probeSerialPorts && options.modems.length === 0) {
    // Probing runs in the background: a port that never opens or a modem still booting must
    // not keep the API from listening.
    const probing = startPortProbing({
      listPorts: serial.listPorts,
      probe: (ports) => pool.discover(ports),
      vanished: (paths) => pool.forgetPorts(paths),
      clock,
      logger,
    });
    stops.add(() => probing.stop());
    if (noModemNamed) {
      void probing.firstRound
        .then(() => simulators.fallBack('No modem answered on any serial port'))
        .catch((error: unknown) => logger.error('could not start the simulated modem', { error }));
    }
  } else if (noModemNamed) {
    await simulators.fallBack('No modem configured and serial probing is off');
  }
  return { addHiLink, networkModems, hilinkAdapter, simulators, phones };
}
