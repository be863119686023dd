import { execFile } from 'node:child_process';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/** One line of `adb devices -l`: "R58M123ABC  device usb:1-1 product:… model:SM_G973F device:… transport_id:1". */
export interface AdbDevice {
  serial: string;
  /** "device" (authorized and online), "unauthorized", "offline", "no permissions", … */
  state: string;
  model?: string;
  product?: string;
}

/**
 * Android's adb (platform-tools), run as a program: the gateway never speaks the adb server's
 * protocol itself. Commands and outputs as `adb --help` documents them:
 * `devices -l`; `-s SERIAL forward tcp:0 tcp:REMOTE` prints the local port it chose;
 * `-s SERIAL reverse tcp:REMOTE tcp:LOCAL`; `-s SERIAL forward --remove tcp:LOCAL`.
 */
export class Adb {
  constructor(
    /** "adb" (looked up on PATH) or the path given with --adb. */
    private readonly program: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async devices(): Promise<AdbDevice[]> {
    return parseDevices(await this.run(['devices', '-l']));
  }

  /** Forwards a free local port to `remotePort` on the phone; resolves with the local port. */
  async forward(serial: string, remotePort: number): Promise<number> {
    const output = await this.run(['-s', serial, 'forward', 'tcp:0', `tcp:${remotePort}`]);
    const port = Number(output.trim());
    if (!Number.isInteger(port) || port <= 0) {
      throw new GatewayError(ErrorCode.PhoneUnreachable, `adb forward gave no port for ${serial}`);
    }
    return port;
  }

  /** Lets the phone reach `localPort` on this computer as 127.0.0.1:`remotePort`. */
  async reverse(serial: string, remotePort: number, localPort: number): Promise<void> {
    await this.run(['-s', serial, 'reverse', `tcp:${remotePort}`, `tcp:${localPort}`]);
  }

  async removeForward(serial: string, localPort: number): Promise<void> {
    await this.run(['-s', serial, 'forward', '--remove', `tcp:${localPort}`]);
  }

  private run(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        this.program,
        args,
        { timeout: this.timeoutMs, windowsHide: true },
        (error, stdout, stderr) => {
          if (!error) {
            resolve(stdout);
            return;
          }
          const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
          reject(
            new GatewayError(
              ErrorCode.PhoneUnreachable,
              missing
                ? `adb was not found (${this.program}): install Android platform-tools, or give its path with --adb`
                : `adb ${args.join(' ')} failed: ${(stderr || error.message).trim()}`,
              { cause: error },
            ),
          );
        },
      );
    });
  }
}

export function parseDevices(output: string): AdbDevice[] {
  const devices: AdbDevice[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (line.startsWith('List of devices') || line.startsWith('*') || line.trim() === '') continue;
    // The state may be two words ("no permissions"); attributes are key:value.
    const match = /^(\S+)\s+(.+?)(?:\s+((?:\S+:\S+\s*)+))?$/.exec(line.trim());
    if (!match?.[1] || !match[2]) continue;
    const device: AdbDevice = { serial: match[1], state: match[2].replace(/\s*\(.*$/, '').trim() };
    for (const attribute of (match[3] ?? '').trim().split(/\s+/)) {
      const [key, value] = attribute.split(':');
      if (key === 'model' && value) device.model = value;
      if (key === 'product' && value) device.product = value;
    }
    devices.push(device);
  }
  return devices;
}

/** What the user does about a phone adb lists but cannot use. */
export function adbAdvice(state: string): string | undefined {
  if (state === 'device') return undefined;
  if (state === 'unauthorized') {
    return 'Unlock the phone and allow USB debugging for this computer (tap "Allow" in the prompt).';
  }
  if (state === 'offline')
    return 'The phone does not answer adb: unplug it and plug it in again, or restart it.';
  if (state.startsWith('no permissions')) {
    return 'This computer may not open the phone: add a udev rule for it (Linux) or run adb as your user.';
  }
  return `adb reports the phone as "${state}".`;
}
