import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { AtSession } from '../../server/devices/at/atSession.js';
import { createTcpTransport } from '../../server/devices/transport/tcpTransport.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';

/** A network modem on a loopback port that answers every CR-terminated command with OK. */
async function startModemServer() {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk) => {
      if (chunk.toString('latin1').includes('\r')) socket.write('\r\n+CSQ: 21,99\r\n\r\nOK\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return { port: address.port, sockets, stop };
}

describe('tcpTransport', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  it('carries an AT session to a network modem and back', async () => {
    const modem = await startModemServer();
    stops.push(modem.stop);
    const session = new AtSession(createTcpTransport({ host: '127.0.0.1', port: modem.port }), {
      clock: systemClock,
      logger: silentLogger,
    });
    await session.open();
    await expect(session.execute('AT+CSQ')).resolves.toEqual({ lines: ['+CSQ: 21,99'] });
    await session.close();
    expect(session.isOpen).toBe(false);
  });

  it('reports a close with TransportClosed when the peer drops the connection', async () => {
    const modem = await startModemServer();
    stops.push(modem.stop);
    const transport = createTcpTransport({ host: '127.0.0.1', port: modem.port });
    const closed = new Promise<Error | undefined>((resolve) => transport.onClose(resolve));
    await transport.open();
    await new Promise((resolve) => setImmediate(resolve));
    for (const socket of modem.sockets) socket.destroy();
    expect(isGatewayError(await closed, ErrorCode.TransportClosed)).toBe(true);
    expect(transport.isOpen).toBe(false);
    await expect(transport.write('AT\r')).rejects.toMatchObject({ code: ErrorCode.TransportClosed });
  });

  it('reports our own close without an error', async () => {
    const modem = await startModemServer();
    stops.push(modem.stop);
    const transport = createTcpTransport({ host: '127.0.0.1', port: modem.port });
    const closes: Array<Error | undefined> = [];
    transport.onClose((error) => closes.push(error));
    await transport.open();
    await transport.close();
    await transport.close();
    expect(closes).toEqual([undefined]);
  });

  it('fails to connect to a closed port with TransportOpenFailed', async () => {
    const modem = await startModemServer();
    await modem.stop();
    const transport = createTcpTransport({ host: '127.0.0.1', port: modem.port });
    await expect(transport.open()).rejects.toMatchObject({ code: ErrorCode.TransportOpenFailed });
    expect(transport.isOpen).toBe(false);
  });
});
