/**
 * The REAL serialport binding on a socat pty pair: the gateway's AtSession over
 * createSerialTransport on one end, a scripted modem (also serialport) on the other.
 */
import { SerialPort } from 'serialport';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { AtSession } from '../../server/devices/at/atSession.js';
import { parseCmgs } from '../../server/devices/at/parsers.js';
import { createSerialTransport, openFailureCode } from '../../server/devices/transport/serialTransport.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { createPtyPair, type PtyPair } from '../support/pty.js';

/** A tiny modem: answers whole commands from a script, byte-exact like a real one. */
async function startResponder(path: string, script: (input: string) => string | undefined) {
  const port = new SerialPort({ path, baudRate: 115_200, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  const received: string[] = [];
  let buffer = '';
  port.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    // A command ends in CR, a PDU in Ctrl-Z.
    for (let end = endOfInput(buffer); end >= 0; end = endOfInput(buffer)) {
      const input = buffer.slice(0, end + 1);
      buffer = buffer.slice(end + 1);
      received.push(input);
      const answer = script(input);
      if (answer !== undefined) port.write(answer);
    }
  });
  // The far end of a pty pair reports EIO once socat is gone; that is expected here.
  port.on('error', () => undefined);
  const close = () =>
    new Promise<void>((resolve) => {
      if (!port.isOpen) resolve();
      else port.close(() => resolve());
    });
  return { received, close };
}

/** Index of the CR ending a command or the Ctrl-Z ending a PDU; -1 when none arrived yet. */
function endOfInput(buffer: string): number {
  for (let i = 0; i < buffer.length; i++) if (buffer[i] === '\r' || buffer[i] === '\x1a') return i;
  return -1;
}

describe('serialTransport on a pty pair', () => {
  let pty: PtyPair;
  let cleanups: Array<() => Promise<void>>;

  beforeEach(async () => {
    pty = await createPtyPair();
    cleanups = [];
  });

  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await pty.close();
  });

  async function openSession() {
    const session = new AtSession(createSerialTransport({ path: pty.hostPath, baudRate: 115_200 }), {
      clock: systemClock,
      logger: silentLogger,
      defaultTimeoutMs: 5_000,
    });
    await session.open();
    cleanups.push(() => session.close());
    return session;
  }

  it('round-trips AT / OK through the real binding', async () => {
    const modem = await startResponder(pty.devicePath, (input) =>
      input === 'AT\r' ? 'AT\r\r\nOK\r\n' : undefined,
    );
    cleanups.push(modem.close);
    const session = await openSession();
    await expect(session.execute('AT')).resolves.toEqual({ lines: [] });
    expect(modem.received).toEqual(['AT\r']);
  });

  it('sends a PDU through the "> " prompt and reads the +CMGS reference', async () => {
    const modem = await startResponder(pty.devicePath, (input) => {
      if (input === 'AT+CMGS=18\r') return '\r\n> ';
      if (input.endsWith('\x1a')) return '\r\n+CMTI: "SM",4\r\n+CMGS: 42\r\n\r\nOK\r\n';
      return '\r\nERROR\r\n';
    });
    cleanups.push(modem.close);
    const session = await openSession();
    const urcs: string[] = [];
    session.onUnsolicited((code) => urcs.push(code.line));
    const response = await session.sendPdu('AT+CMGS=18', '0011000B916407281553F80000AA05E8329BFD06', {
      promptTimeoutMs: 5_000,
      resultTimeoutMs: 5_000,
    });
    expect(parseCmgs(response.lines)).toBe(42);
    expect(urcs).toEqual(['+CMTI: "SM",4']);
    expect(modem.received).toEqual(['AT+CMGS=18\r', '0011000B916407281553F80000AA05E8329BFD06\x1a']);
  });

  it('reports a close with an error when the far end goes away (socat killed)', async () => {
    const modem = await startResponder(pty.devicePath, () => undefined);
    cleanups.push(modem.close);
    const session = await openSession();
    const closed = new Promise<Error | undefined>((resolve) => session.onClose(resolve));
    const inFlight = session.execute('AT+CSQ').catch((error: unknown) => error);
    // The command is written and waiting for its reply when the port goes (a write that meets
    // the gone port fails as a closed transport instead).
    await vi.waitFor(() => expect(modem.received).toEqual(['AT+CSQ\r']));
    await pty.close();
    const error = await closed;
    expect(isGatewayError(error, ErrorCode.TransportClosed)).toBe(true);
    expect(isGatewayError(await inFlight, ErrorCode.AtSessionClosed)).toBe(true);
    expect(session.isOpen).toBe(false);
  });

  it('fails to open a missing port with TransportOpenFailed', async () => {
    const transport = createSerialTransport({ path: `${pty.hostPath}-missing`, baudRate: 9_600 });
    await expect(transport.open()).rejects.toMatchObject({ code: ErrorCode.TransportOpenFailed });
    expect(transport.isOpen).toBe(false);
  });

  it('rejects writes on a closed transport with TransportClosed', async () => {
    const transport = createSerialTransport({ path: pty.hostPath });
    await transport.open();
    await transport.close();
    await transport.close();
    await expect(transport.write('AT\r')).rejects.toMatchObject({ code: ErrorCode.TransportClosed });
  });
});

describe('a serial port that does not open', () => {
  it.each([
    // The binding's own words (serialport/bindings-cpp src/serialport_unix.cpp, serialport_win.cpp).
    ['Error: Permission denied, cannot open /dev/ttyUSB0', ErrorCode.TransportAccessDenied],
    ['Opening COM3: Access denied', ErrorCode.TransportAccessDenied],
    ['Error: No such file or directory, cannot open /dev/ttyUSB9', ErrorCode.TransportOpenFailed],
    ['Opening COM7: File not found', ErrorCode.TransportOpenFailed],
  ])('says %j as code %s', (text, code) => {
    expect(openFailureCode(new Error(text))).toBe(code);
  });
});
