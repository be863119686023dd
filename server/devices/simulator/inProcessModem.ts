import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../logging/logger.js';
import type { ModemSource } from '../pool/serialModemSource.js';
import { createMemoryLink } from '../transport/memoryTransport.js';
import { SimulatedModem } from './simulatedModem.js';

export interface RunningSimulatedModem {
  modem: SimulatedModem;
  source: ModemSource;
}

/**
 * A built-in simulated modem on an in-memory link: what `--simulate` runs and what starts
 * when no real modem answers. Each one has its own IMEI, so its device id is stable.
 */
export async function startSimulatedModem(
  index: number,
  deps: { clock: Clock; logger: Logger },
): Promise<RunningSimulatedModem> {
  const name = `simulated:${index}`;
  const link = createMemoryLink(name);
  const modem = new SimulatedModem(link.device, {
    clock: deps.clock,
    logger: deps.logger.child(name),
    identity: {
      imei: `35000000000${String(index).padStart(4, '0')}`,
      iccid: `8900000000000000${String(index).padStart(4, '0')}`,
      // Its own number too: pickers tell two simulated modems apart by their SIMs' numbers.
      ownNumber: `+4477009000${String(index).padStart(2, '0')}`,
    },
    // A modem left running for days must not keep every command it ever saw.
    historyLimit: 1_000,
  });
  await modem.start();
  return {
    modem,
    source: { port: name, simulated: true, openTransport: async () => link.host },
  };
}
