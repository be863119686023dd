import { lstat } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { encodeSubmit } from '../../server/contract/pdu/index.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { createSerialTransport } from '../../server/devices/transport/serialTransport.js';
import type { Transport } from '../../server/devices/transport/transport.js';
import { silentLogger } from '../../server/logging/logger.js';
import { AtTerminal } from './atTerminal.js';

describe('startPtyModem', () => {
  let pty: PtyModem | undefined;
  let host: Transport | undefined;
  afterEach(async () => {
    await host?.close();
    await pty?.close();
    host = undefined;
    pty = undefined;
  });

  it('serves AT over a real pseudo-terminal opened with serialport', async () => {
    pty = await startPtyModem({ clock: systemClock, logger: silentLogger, modem: { echo: false } });
    host = createSerialTransport({ path: pty.path });
    await host.open();
    const terminal = new AtTerminal(host);
    expect(await terminal.exchange('AT+CGMI')).toEqual(['Desktop SMS Gateway', 'OK']);

    const [part] = encodeSubmit({
      recipient: '+447700900123',
      content: { kind: 'text', text: 'over a pty' },
      requestStatusReport: false,
      concatReference: 0,
    });
    expect(await terminal.submitPdu(part?.hex ?? '', part?.tpduLength ?? 0)).toEqual(['+CMGS: 0', 'OK']);
    expect(pty.modem.accepted.map((accepted) => accepted.decoded.text)).toEqual(['over a pty']);
    expect(pty.modem.commands).toEqual(['AT+CGMI', `AT+CMGS=${part?.tpduLength}`]);
  });

  it('keeps serving after the host closes and reopens the port', async () => {
    pty = await startPtyModem({ clock: systemClock, logger: silentLogger, modem: { echo: false } });
    const first = createSerialTransport({ path: pty.path });
    await first.open();
    expect(await new AtTerminal(first).exchange('AT')).toEqual(['OK']);
    await first.close();
    host = createSerialTransport({ path: pty.path });
    await host.open();
    expect(await new AtTerminal(host).exchange('AT+CSQ')).toEqual(['+CSQ: 20,99', 'OK']);
  });

  it('removes the link when closed', async () => {
    const started = await startPtyModem({ clock: systemClock, logger: silentLogger });
    await started.close();
    await expect(lstat(started.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
