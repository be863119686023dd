/**
 * A serial-over-IP server on a loopback port, doing what ser2net does in raw mode: each client's
 * bytes pass unchanged to a serial port (here a simulated modem's pty, opened through
 * node-serialport with the binding the gateway uses, which reads on at once on Node 26) and back.
 */
import { createServer, type Socket } from 'node:net';
import { SerialPortStream } from '@serialport/stream';
import type { PtyModem } from '../../server/devices/simulator/ptyModem.js';
import { hangupAwareBinding } from '../../server/devices/transport/hangupAwareBinding.js';

const binding = hangupAwareBinding();

export interface SerialServer {
  /** `tcp://127.0.0.1:<port>` */
  address: string;
  /** The connected clients (the gateway's sockets). */
  clients: Set<Socket>;
  /** Drops every client and closes the server. */
  stop(): Promise<void>;
}

export async function startSerialServer(pty: Pick<PtyModem, 'path'>): Promise<SerialServer> {
  const clients = new Set<Socket>();
  const server = createServer((socket) => {
    clients.add(socket);
    const port = new SerialPortStream({ binding, path: pty.path, baudRate: 115_200 });
    socket.pipe(port);
    port.pipe(socket);
    const hangUp = () => {
      clients.delete(socket);
      socket.destroy();
      if (port.isOpen) port.close();
    };
    socket.on('close', hangUp);
    socket.on('error', hangUp);
    port.on('error', hangUp);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the serial server has no port');
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const client of clients) client.destroy();
      server.close(() => resolve());
    });
  return { address: `tcp://127.0.0.1:${address.port}`, clients, stop };
}
