import type { GatewayOptions } from '../config/options.js';
import { isTcpAddress } from '../contract/domain/tcpAddress.js';
import type { TrafficLine } from '../contract/domain/trafficLine.js';
import { AtSession } from '../devices/at/atSession.js';
import { TrafficRecorder } from '../devices/at/trafficRecorder.js';
import { ModemDriver, type ModemDriverOptions } from '../devices/modem/modemDriver.js';
import { type KnownDevice, ModemPool } from '../devices/pool/modemPool.js';
import type { SerialAccess } from '../devices/pool/serialModemSource.js';
import type { CompositionContext } from './context.js';
import type { MessageRecords } from './messaging.js';
import type { ModemOperationSettings } from './operations.js';

export interface ComposedModemPool {
  pool: ModemPool;
  /** The last AT lines of a port, for the UI's modem page (whatever the log level). */
  atLog(port: string, limit: number): TrafficLine[] | undefined;
}

/**
 * The modem pool, built but not started: every AT session behind a traffic recorder,
 * received SMS into the inbox, delivery reports into the lifecycle, calls into the operations.
 */
export async function composeModemPool(
  context: CompositionContext,
  deps: {
    options: Pick<GatewayOptions, 'modems' | 'simPin' | 'modemTiming' | 'atSession' | 'showPdus'>;
    serial: SerialAccess;
    records: MessageRecords;
    operations: ModemOperationSettings;
  },
): Promise<ComposedModemPool> {
  const { clock, logger } = context;
  const { operations, records } = deps;
  const traffic = new Map<string, TrafficRecorder>();
  const recorderFor = (port: string) => {
    let recorder = traffic.get(port);
    if (!recorder) {
      recorder = new TrafficRecorder(() => clock.now());
      traffic.set(port, recorder);
    }
    return recorder;
  };
  const devicesDocument = await context.storage.openDocument<{ devices: KnownDevice[] }>('devices', {
    devices: [],
  });
  const pool = new ModemPool({
    clock,
    logger,
    knownDevices: {
      load: () => devicesDocument.data.devices,
      save: (devices) =>
        devicesDocument.update((data) => {
          data.devices = devices;
        }),
    },
    createDriver: (source) => {
      const driverOptions: ModemDriverOptions = {
        source,
        createSession: (transport) =>
          // The session names itself after its port (`at:/dev/ttyUSB0`). Anything may answer at a
          // network address: its lines are shown once it answered like a modem.
          new AtSession(
            recorderFor(transport.description).record(transport, {
              untilModemAnswers: isTcpAddress(transport.description),
              showPdus: deps.options.showPdus,
            }),
            { ...deps.options.atSession, showPdus: deps.options.showPdus, clock, logger },
          ),
        receive: (deviceId, simNumber, sms) => records.inbox.receive(deviceId, simNumber, sms),
        onDeliveryReport: (report) => records.lifecycle.applyDeliveryReport(report),
        onReportsRefused: (deviceId) => records.lifecycle.markReportsRefused(deviceId),
        onCall: operations.recordCall,
        rejectCalls: (deviceId) => operations.settings.settings(deviceId).rejectCalls,
        timing: deps.options.modemTiming,
        clock,
        logger,
      };
      if (deps.options.simPin !== undefined) driverOptions.pin = deps.options.simPin;
      return new ModemDriver(driverOptions);
    },
    balanceOf: (deviceId) => operations.settings.lastBalance(deviceId),
    serial: { ...deps.serial, configured: deps.options.modems },
  });
  return { pool, atLog: (port, limit) => traffic.get(port)?.recent(limit) };
}
