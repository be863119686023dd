/**
 * A simulated modem behind a pseudo-terminal, so the gateway (or any terminal program) opens
 * it like a USB modem: `socat` joins two ptys, the gateway gets the one linked at `path`, and
 * the SimulatedModem talks node-serialport on the other.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../clock/clock.js';
import { systemClock } from '../clock/clock.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { createSerialTransport } from '../transport/serialTransport.js';
import { SimulatedModem, type SimulatedModemOptions } from './simulatedModem.js';

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

  // "-d -d" makes socat print "PTY is /dev/pts/N" for each side and "starting data transfer
  // loop" once both exist; raw,echo=0 keeps the line discipline from answering in the modem's name.
  const socat = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${path}`, 'pty,raw,echo=0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let devicePath: string;
  try {
    devicePath = await waitForPtys(socat, options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  } catch (error) {
    await stopProcess(socat);
    await removeOwnedDirectory();
    throw error;
  }

  const modem = new SimulatedModem(createSerialTransport({ path: devicePath }), {
    ...options.modem,
    clock: options.clock,
    logger: options.logger,
  });
  try {
    await modem.start();
  } catch (error) {
    await stopProcess(socat);
    await removeOwnedDirectory();
    throw error;
  }
  // Keep reading socat's notices so a full pipe can never stall it.
  socat.stderr?.on('data', (chunk: Buffer) =>
    logger.debug('socat', { output: chunk.toString('utf8').trim() }),
  );
  let closing: Promise<void> | undefined;
  socat.once('exit', (code, signal) => {
    // Only an exit we did not ask for is news: the pty is gone and the modem with it.
    if (closing === undefined) logger.warn('socat ended: the simulated modem pty is gone', { code, signal });
  });
  logger.info('simulated modem on a pty', { path, devicePath });

  return {
    path,
    modem,
    close() {
      closing ??= (async () => {
        await modem.stop();
        await stopProcess(socat);
        // socat removes its link when it ends; a folder we made goes as well.
        await rm(path, { force: true });
        await removeOwnedDirectory();
      })();
      return closing;
    },
  };
}

/** Resolves with the second pty (the modem's side) once socat has both open. */
function waitForPtys(socat: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const ptys: string[] = [];
    let output = '';
    // A real child process: its deadline is real time even when the modem runs on a ManualClock.
    const deadline = systemClock.setTimer(() => {
      fail(
        new GatewayError(
          ErrorCode.TransportOpenFailed,
          `socat did not create the ptys within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      for (const match of output.matchAll(/PTY is (\S+)/g)) {
        const pty = match[1];
        if (pty !== undefined && !ptys.includes(pty)) ptys.push(pty);
      }
      const devicePty = ptys[1];
      if (devicePty !== undefined && output.includes('starting data transfer loop')) {
        cleanUp();
        resolve(devicePty);
      }
    };
    const onError = (error: Error) =>
      fail(
        new GatewayError(ErrorCode.TransportOpenFailed, `cannot run socat: ${error.message}`, {
          cause: error,
        }),
      );
    const onExit = (code: number | null) =>
      fail(
        new GatewayError(
          ErrorCode.TransportOpenFailed,
          `socat ended (code ${code}) before the ptys were ready`,
          {
            partialResponse: output.split('\n').filter((line) => line !== ''),
          },
        ),
      );
    const cleanUp = () => {
      deadline.cancel();
      socat.stderr?.off('data', onData);
      socat.off('error', onError);
      socat.off('exit', onExit);
    };
    const fail = (error: GatewayError) => {
      cleanUp();
      reject(error);
    };
    socat.stderr?.on('data', onData);
    socat.once('error', onError);
    socat.once('exit', onExit);
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
