/**
 * The platform's serialport binding, with reads that notice a hung-up port on Linux and macOS,
 * and that go on at once on Node 26 (`settleAfterPollerEvents`).
 *
 * After a USB modem is unplugged (or a pty's master closes) the kernel hangs the tty up, and
 * from then on read() returns 0 bytes at once. bindings-cpp's unixRead answers a zero-byte read
 * by reading again straight away, so a read issued after the hang-up spins for good and the
 * port never reports the disconnect (serialport/bindings-cpp#162, open; lib/unix-read.ts). Only
 * a read that was already waiting on the poller sees the hang-up, as a poll error. The ports
 * are opened with VMIN 1 and O_NONBLOCK, so an idle port answers EAGAIN, never 0: a zero-byte
 * read is handed to unixRead as EAGAIN, which waits on the poller — where a hung-up tty reports
 * its error and a live one waits for data.
 */
import { read } from 'node:fs';
import { promisify } from 'node:util';
import {
  autoDetect,
  type BindingInterface,
  type DarwinPortBinding,
  type LinuxPortBinding,
} from '@serialport/bindings-cpp';
import { unixRead } from '@serialport/bindings-cpp/dist/unix-read.js';

const readAsync = promisify(read);

type UnixPortBinding = LinuxPortBinding | DarwinPortBinding;

/** A zero-byte read from a tty in this mode means "hung up": let the poller say so. */
const readOrWait: typeof readAsync = async (...args: Parameters<typeof readAsync>) => {
  const result = await readAsync(...args);
  if (result.bytesRead === 0) {
    throw Object.assign(new Error('read returned no bytes; waiting on the poller'), { code: 'EAGAIN' });
  }
  return result;
};

function isUnixPort(port: object): port is UnixPortBinding {
  return 'poller' in port && 'fd' in port;
}

const nothing = () => undefined;

/**
 * Since Node 26.4 (nodejs/node#62969) no microtasks run after a native callback made without a
 * callback scope, and the poller calls its listeners that way (serialport/bindings-cpp#239 and
 * node-serialport#3148, both open): a read or write waiting on 'readable' or 'writable' went on
 * only when some later timer or socket event ran, seconds later on a quiet gateway, and a
 * modem's answers came late or after their timeout. An immediate set from the event runs in a
 * proper scope, and the waiting continuation runs right after it.
 */
function settleAfterPollerEvents(port: UnixPortBinding): void {
  for (const event of ['readable', 'writable', 'disconnect'])
    port.poller.on(event, () => setImmediate(nothing));
}

export function hangupAwareBinding(detected: BindingInterface = autoDetect()): BindingInterface {
  return {
    list: () => detected.list(),
    async open(options) {
      const port = await detected.open(options);
      if (isUnixPort(port)) {
        port.read = (buffer, offset, length) =>
          unixRead({ binding: port, buffer, offset, length, fsReadAsync: readOrWait });
        settleAfterPollerEvents(port);
      }
      return port;
    },
  };
}
