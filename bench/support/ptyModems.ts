import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../server/clock/clock.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import type { SimulatedModemOptions } from '../../server/devices/simulator/simulatedModem.js';
import { createLogger } from '../../server/logging/logger.js';

/**
 * Simulated modems on ptys hosted by THIS process, each with its own IMEI so the gateway sees
 * separate devices. They live outside the gateway, so their counts of accepted PDUs survive a
 * gateway crash: the ground truth for "sent exactly once".
 */
export interface PtyModemFleet {
  modems: PtyModem[];
  paths: string[];
  /** PDUs accepted (AT+CMGS answered OK) across every modem. */
  acceptedCount(): number;
  close(): Promise<void>;
}

export type FleetModemOptions = Omit<SimulatedModemOptions, 'clock' | 'logger' | 'identity'>;

export async function startPtyModemFleet(
  count: number,
  modem: FleetModemOptions = {},
): Promise<PtyModemFleet> {
  const logger = createLogger({ level: 'ERROR', sinks: [] });
  const directory = await mkdtemp(join(tmpdir(), 'sms-bench-'));
  const modems: PtyModem[] = [];
  const close = async () => {
    await Promise.all(modems.splice(0).map((ptyModem) => ptyModem.close()));
    await rm(directory, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < count; index++) {
      modems.push(
        await startPtyModem({
          clock: systemClock,
          logger,
          directory,
          name: `sim${index}`,
          modem: { ...modem, identity: { imei: imeiFor(index) } },
        }),
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    modems,
    paths: modems.map((ptyModem) => ptyModem.path),
    acceptedCount: () => modems.reduce((sum, ptyModem) => sum + ptyModem.modem.accepted.length, 0),
    close,
  };
}

/** Distinct IMEIs with a valid Luhn check digit (TS 23.003 §6.2.1). */
function imeiFor(index: number): string {
  const body = `35209900${String(index).padStart(6, '0')}`;
  let sum = 0;
  for (let position = 0; position < body.length; position++) {
    let digit = Number(body[body.length - 1 - position]);
    if (position % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}
