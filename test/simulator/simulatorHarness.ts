/** Builds a SimulatedModem on an in-memory link with a ManualClock and a terminal on the host end. */
import { ManualClock } from '../../server/clock/manualClock.js';
import { SimulatedModem, type SimulatedModemOptions } from '../../server/devices/simulator/simulatedModem.js';
import { createMemoryLink, type MemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { silentLogger } from '../../server/logging/logger.js';
import { AtTerminal } from './atTerminal.js';

export interface SimulatorHarness {
  clock: ManualClock;
  link: MemoryLink;
  modem: SimulatedModem;
  terminal: AtTerminal;
  stop(): Promise<void>;
}

export async function startSimulator(
  options: Partial<Omit<SimulatedModemOptions, 'clock' | 'logger'>> = {},
): Promise<SimulatorHarness> {
  const clock = new ManualClock();
  const link = createMemoryLink('simulated:test');
  await link.host.open();
  const modem = new SimulatedModem(link.device, { clock, logger: silentLogger, ...options });
  await modem.start();
  const terminal = new AtTerminal(link.host);
  return {
    clock,
    link,
    modem,
    terminal,
    async stop() {
      await modem.stop();
      await link.host.close();
    },
  };
}
