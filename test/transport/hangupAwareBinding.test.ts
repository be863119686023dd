/**
 * The REAL platform binding on a socat pty pair, wrapped by hangupAwareBinding: a read issued
 * after the port was hung up (socat gone, as after a USB unplug) must fail so that serialport
 * reports the disconnect. With bindings-cpp's own unixRead that read re-reads zero bytes for
 * good (serialport/bindings-cpp#162), and the modem stays "ready" until something is written.
 */
import { autoDetect, type BindingPortInterface } from '@serialport/bindings-cpp';
import { afterEach, describe, expect, it } from 'vitest';
import { hangupAwareBinding } from '../../server/devices/transport/hangupAwareBinding.js';
import { createPtyPair } from '../support/pty.js';

const opened: BindingPortInterface[] = [];

afterEach(async () => {
  for (const port of opened.splice(0)) if (port.isOpen) await port.close();
});

async function openHost(path: string) {
  const port = await hangupAwareBinding().open({ path, baudRate: 115_200 });
  opened.push(port);
  return port;
}

/** What a read did, or 'still reading' while it has not settled. */
function watchRead(port: BindingPortInterface) {
  let outcome = 'still reading';
  const settled = port.read(Buffer.alloc(64), 0, 64).then(
    ({ bytesRead }) => {
      outcome = `read ${bytesRead} bytes`;
    },
    (error: Error) => {
      outcome = `failed: ${error.message}`;
    },
  );
  return { settled, outcome: () => outcome };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('hangupAwareBinding', () => {
  it('fails a read begun after the port hung up, instead of re-reading nothing for good', async () => {
    const pty = await createPtyPair();
    const port = await openHost(pty.hostPath);
    await pty.close();
    // socat has exited: the kernel hung the tty up before this read starts.
    const read = watchRead(port);
    await Promise.race([read.settled, pause(5_000)]);
    expect(read.outcome()).toMatch(/^failed: /);
  });

  it('still waits for data on a live port, and returns it when it comes', async () => {
    const pty = await createPtyPair();
    const port = await openHost(pty.hostPath);
    const device = await autoDetect().open({ path: pty.devicePath, baudRate: 115_200 });
    opened.push(device);
    const read = watchRead(port);
    await pause(300);
    expect(read.outcome()).toBe('still reading');
    await device.write(Buffer.from('OK\r\n'));
    await Promise.race([read.settled, pause(5_000)]);
    expect(read.outcome()).toBe('read 4 bytes');
    await pty.close();
  });
});
