import { describe, expect, it } from 'vitest';
import { type RecordOptions, TrafficRecorder } from '../../server/devices/at/trafficRecorder.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';

async function recordedLink(capacity?: number, options?: RecordOptions) {
  const link = createMemoryLink('modem');
  const recorder = new TrafficRecorder(() => 1_000, capacity);
  const host = recorder.record(link.host, options);
  await host.open();
  await link.device.open();
  return { recorder, host, device: link.device };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('AT traffic recorder', () => {
  it('records commands out and lines in, joining lines split across chunks', async () => {
    const { recorder, host, device } = await recordedLink();
    await host.write('AT+CSQ\r');
    await device.write('\r\n+CS');
    await device.write('Q: 20,99\r\n\r\nOK\r\n');
    await settle();
    expect(recorder.recent(10)).toEqual([
      { at: 1_000, direction: 'out', line: 'AT+CSQ' },
      { at: 1_000, direction: 'in', line: '+CSQ: 20,99' },
      { at: 1_000, direction: 'in', line: 'OK' },
    ]);
  });

  it('shows the PDU prompt, the PDU as its size, and the Ctrl-Z that ends it', async () => {
    const { recorder, host, device } = await recordedLink();
    await host.write('AT+CMGS=18\r');
    await device.write('\r\n> ');
    await settle();
    await host.write('0011000B91\u001a');
    expect(recorder.recent(10).map((line) => line.line)).toEqual([
      'AT+CMGS=18',
      '> ',
      '<PDU hidden: 5 bytes><Ctrl-Z>',
    ]);
  });

  it('keeps PDUs as they are with showPdus (--show-pdus)', async () => {
    const { recorder, host, device } = await recordedLink(undefined, { showPdus: true });
    await host.write('AT+CMGS=18\r');
    await device.write('\r\n> ');
    await settle();
    await host.write('0011000B91\u001a');
    expect(recorder.recent(1)[0]?.line).toBe('0011000B91<Ctrl-Z>');
  });

  it('never records a SIM PIN', async () => {
    const { recorder, host } = await recordedLink();
    await host.write('AT+CPIN="4321"\r');
    expect(recorder.recent(1)[0]?.line).toBe('AT+CPIN="****"');
  });

  it('never records a SIM PIN a modem echoes back', async () => {
    const { recorder, device } = await recordedLink();
    await device.write('AT+CPIN="4321"\r\r\nOK\r\n');
    await settle();
    expect(recorder.recent(10).map((line) => line.line)).toEqual(['AT+CPIN="****"', 'OK']);
  });

  it('keeps only the newest lines up to its capacity', async () => {
    const { recorder, host } = await recordedLink(3);
    for (const command of ['AT', 'ATE0', 'AT+CMEE=1', 'AT+CMGF=0']) await host.write(`${command}\r`);
    expect(recorder.recent(10).map((line) => line.line)).toEqual(['ATE0', 'AT+CMEE=1', 'AT+CMGF=0']);
  });

  it('shows a network connection only once it answered a command with OK (issue 36, item 8)', async () => {
    const { recorder, host, device } = await recordedLink(undefined, { untilModemAnswers: true });
    await device.write('SSH-2.0-OpenSSH_9.6\r\n');
    await settle();
    await host.write('AT\r');
    await device.write('-ERR unknown command\r\n');
    await settle();
    expect(recorder.recent(10)).toEqual([]);

    await host.write('AT\r');
    await device.write('\r\nOK\r\n');
    await settle();
    expect(recorder.recent(10).map((line) => line.line)).toEqual([
      'SSH-2.0-OpenSSH_9.6',
      'AT',
      '-ERR unknown command',
      'AT',
      'OK',
    ]);
  });

  it('never shows the lines of a network connection that did not answer like a modem', async () => {
    const { recorder, host, device } = await recordedLink(undefined, { untilModemAnswers: true });
    await device.write('OK\r\n');
    await host.write('GET / HTTP/1.1\r\n');
    await device.write('HTTP/1.1 400 Bad Request\r\n');
    await settle();
    expect(recorder.recent(10)).toEqual([]);
  });
});
