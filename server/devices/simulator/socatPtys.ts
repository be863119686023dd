/**
 * Two pseudo-terminals joined by socat, like the two ends of a serial cable: what is written on
 * one is read on the other. The simulated modem sits on `devicePath`; the gateway (or a test)
 * opens `hostPath`, which is the `link` when one is asked for.
 *
 * "-d -d" makes socat print "PTY is /dev/pts/N" for each side, then "starting data transfer
 * loop" once both exist; `raw,echo=0` keeps the line discipline from answering in the modem's
 * name. socat's notices are lines, read with serialport's readline parser.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { ReadlineParser } from '@serialport/parser-readline';
import { systemClock } from '../../clock/clock.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

export interface SocatPtysOptions {
  /** A stable path linked to the host side (socat creates and removes it). */
  link?: string;
  /** How long socat may take to create the ptys, ms. */
  startTimeoutMs: number;
  /** Every notice socat prints after the ptys are ready (read on, so its pipe never fills). */
  onNotice?: (line: string) => void;
  /** Called when socat ends without `stop()`: both ptys are gone, as after a USB unplug. */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface SocatPtys {
  hostPath: string;
  devicePath: string;
  /** Ends socat (SIGTERM) and waits for it; both ptys go away. Safe to call twice. */
  stop(): Promise<void>;
}

export async function openSocatPtys(options: SocatPtysOptions): Promise<SocatPtys> {
  const hostSide = options.link === undefined ? 'pty,raw,echo=0' : `pty,raw,echo=0,link=${options.link}`;
  const socat = spawn('socat', ['-d', '-d', hostSide, 'pty,raw,echo=0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const notices = socat.stderr?.pipe(new ReadlineParser({ delimiter: '\n' }));
  if (!notices) throw new GatewayError(ErrorCode.TransportOpenFailed, 'socat has no stderr to read');
  let stopping = false;
  try {
    const [hostPty, devicePath] = await readyPtys(socat, notices, options.startTimeoutMs);
    notices.on('data', (line: string) => options.onNotice?.(line.trim()));
    socat.once('exit', (code, signal) => {
      if (!stopping) options.onUnexpectedExit?.(code, signal);
    });
    return {
      hostPath: options.link ?? hostPty,
      devicePath,
      stop() {
        stopping = true;
        return stopProcess(socat);
      },
    };
  } catch (error) {
    stopping = true;
    await stopProcess(socat);
    throw error;
  }
}

/** Resolves with both ptys (host side first) once socat relays bytes between them. */
function readyPtys(
  socat: ChildProcess,
  notices: ReadlineParser,
  timeoutMs: number,
): Promise<[string, string]> {
  return new Promise((resolve, reject) => {
    const ptys: string[] = [];
    const seen: string[] = [];
    // A real child process: its deadline is real time even when a modem runs on a ManualClock.
    const deadline = systemClock.setTimer(() => {
      fail(
        new GatewayError(
          ErrorCode.TransportOpenFailed,
          `socat did not create the ptys within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    const onLine = (line: string) => {
      seen.push(line.trim());
      const pty = /PTY is (\S+)/.exec(line)?.[1];
      if (pty !== undefined) ptys.push(pty);
      const [hostPty, devicePty] = ptys;
      if (hostPty !== undefined && devicePty !== undefined && line.includes('starting data transfer loop')) {
        cleanUp();
        resolve([hostPty, devicePty]);
      }
    };
    const onError = (error: NodeJS.ErrnoException) =>
      fail(
        new GatewayError(
          ErrorCode.TransportOpenFailed,
          error.code === 'ENOENT'
            ? `socat is not installed (Debian/Ubuntu: sudo apt-get install socat; Fedora: sudo dnf install socat; macOS: brew install socat)`
            : `cannot run socat: ${error.message}`,
          { cause: error },
        ),
      );
    const onExit = (code: number | null) =>
      fail(
        new GatewayError(
          ErrorCode.TransportOpenFailed,
          `socat ended (code ${code}) before the ptys were ready`,
          {
            partialResponse: seen,
          },
        ),
      );
    const cleanUp = () => {
      deadline.cancel();
      notices.off('data', onLine);
      socat.off('error', onError);
      socat.off('exit', onExit);
    };
    const fail = (error: GatewayError) => {
      cleanUp();
      reject(error);
    };
    notices.on('data', onLine);
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
