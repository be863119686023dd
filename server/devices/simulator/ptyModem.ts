/**
 * A simulated modem behind a pseudo-terminal, so the gateway (or any terminal program) opens
 * it like a USB modem: `socat` joins two ptys, the gateway gets the one linked at `path`, and
 * the SimulatedModem talks node-serialport on the other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../logging/logger.js';
import { createSerialTransport } from '../transport/serialTransport.js';
import { SimulatedModem, type SimulatedModemOptions } from './simulatedModem.js';
import { openSocatPtys, type SocatPtys } from './socatPtys.js';

export interface PtyModemOptions {
  clock: Clock;
  logger: Logger;
  /** Folder for the link the gateway opens (default: a fresh temporary folder, removed on close). */
  directory?: string;
  /** File name of the link in `directory` (default "sim0"). */
  name?: string;
  /** Everything else the modem takes. */
  modem?: Omit<SimulatedModemOptions, 'clock' | 'logger'>;
  /** How long socat may take to create the ptys, ms (default 5000). */
  startTimeoutMs?: number;
}

export interface PtyModem {
  /** The pty link to open as the modem, e.g. `/tmp/sms-sim-x/sim0` → /dev/pts/4. */
  path: string;
  modem: SimulatedModem;
  /** Stops the modem and socat, and removes the link (and the folder it created). */
  close(): Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 5000;

export async function startPtyModem(options: PtyModemOptions): Promise<PtyModem> {
  const logger = options.logger.child('pty-simulator');
  const ownedDirectory =
    options.directory === undefined ? await mkdtemp(join(tmpdir(), 'sms-sim-')) : undefined;
  const directory = options.directory ?? ownedDirectory ?? tmpdir();
  const path = join(directory, options.name ?? 'sim0');
  const removeOwnedDirectory = async () => {
    if (ownedDirectory !== undefined) await rm(ownedDirectory, { recursive: true, force: true });
  };

  let ptys: SocatPtys;
  let closing: Promise<void> | undefined;
  try {
    ptys = await openSocatPtys({
      link: path,
      startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      onNotice: (line) => logger.debug('socat', { output: line }),
      // Only an exit we did not ask for is news: the pty is gone and the modem with it.
      onUnexpectedExit: (code, signal) => {
        if (closing === undefined)
          logger.warn('socat ended: the simulated modem pty is gone', { code, signal });
      },
    });
  } catch (error) {
    await removeOwnedDirectory();
    throw error;
  }

  const modem = new SimulatedModem(createSerialTransport({ path: ptys.devicePath }), {
    ...options.modem,
    clock: options.clock,
    logger: options.logger,
  });
  try {
    await modem.start();
  } catch (error) {
    await ptys.stop();
    await removeOwnedDirectory();
    throw error;
  }
  logger.info('simulated modem on a pty', { path, devicePath: ptys.devicePath });

  return {
    path,
    modem,
    close() {
      closing ??= (async () => {
        await modem.stop();
        await ptys.stop();
        // socat removes its link when it ends; a folder we made goes as well.
        await rm(path, { force: true });
        await removeOwnedDirectory();
      })();
      return closing;
    },
  };
}
