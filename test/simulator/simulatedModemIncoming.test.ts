import { afterEach, describe, expect, it } from 'vitest';
import { decodePdu } from '../../server/contract/pdu/index.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { lines } from './atTerminal.js';
import { type SimulatorHarness, startSimulator } from './simulatorHarness.js';

// 200 GSM 7-bit characters: two parts of at most 153 septets each (TS 23.040 §9.2.3.24.1).
const LONG_TEXT = `${'The quick brown fox jumps over the lazy dog. '.repeat(4)}0123456789012345678`;

function decodeDeliver(hex: string | undefined) {
  const decoded = decodePdu(hex ?? '');
  if (decoded.type !== 'deliver') throw new Error(`expected an SMS-DELIVER, got ${decoded.type}`);
  return decoded;
}

/** The PDU lines of a +CMGL listing, by the index its header gave. */
function listing(reply: string[]): Map<number, { status: number; pdu: string }> {
  const entries = new Map<number, { status: number; pdu: string }>();
  reply.forEach((line, position) => {
    const header = /^\+CMGL: (\d+),(\d),,(\d+)$/.exec(line);
    if (header) entries.set(Number(header[1]), { status: Number(header[2]), pdu: reply[position + 1] ?? '' });
  });
  return entries;
}

describe('SimulatedModem receiving messages', () => {
  let sim: SimulatorHarness;
  afterEach(async () => {
    await sim.stop();
  });

  it('stores each part of a long message and announces it with +CMTI in the order given', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.injectIncoming({ sender: '+447700900555', text: LONG_TEXT }, { partOrder: [1, 0] });
    expect(lines(await sim.terminal.waitFor((text) => text.split('+CMTI').length === 3))).toEqual([
      '+CMTI: "SM",0',
      '+CMTI: "SM",1',
    ]);
    const stored = listing(await sim.terminal.exchange('AT+CMGL=4'));
    const parts = [...stored.values()].map((entry) => decodeDeliver(entry.pdu));
    expect(parts.map((part) => part.concatenation?.partNumber)).toEqual([2, 1]);
    expect(parts.every((part) => part.sender.number === '+447700900555')).toBe(true);
    const text = [...parts]
      .sort((a, b) => (a.concatenation?.partNumber ?? 0) - (b.concatenation?.partNumber ?? 0))
      .map((part) => part.text)
      .join('');
    expect(text).toBe(LONG_TEXT);
  });

  it('lists unread messages once: reading them marks them read', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'first' });
    sim.modem.injectIncoming({ sender: '+447700900556', text: 'second' });
    await sim.terminal.waitFor((text) => text.split('+CMTI').length === 3);
    const unread = listing(await sim.terminal.exchange('AT+CMGL=0'));
    expect([...unread.keys()]).toEqual([0, 1]);
    expect([...unread.values()].map((entry) => entry.status)).toEqual([0, 0]);
    expect(await sim.terminal.exchange('AT+CMGL=0')).toEqual(['OK']);
    const read = listing(await sim.terminal.exchange('AT+CMGL=1'));
    expect([...read.values()].map((entry) => decodeDeliver(entry.pdu).text)).toEqual(['first', 'second']);
  });

  it('shows a message as unread on its first AT+CMGR and read afterwards', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'hello', at: Date.UTC(2026, 0, 1, 12) });
    await sim.terminal.waitForLine('+CMTI: "SM",0');
    const [header, pdu, final] = await sim.terminal.exchange('AT+CMGR=0');
    expect(header).toMatch(/^\+CMGR: 0,,\d+$/);
    expect(final).toBe('OK');
    const message = decodeDeliver(pdu);
    expect(message.text).toBe('hello');
    expect(message.timestamp.epochMs).toBe(Date.UTC(2026, 0, 1, 12));
    expect((await sim.terminal.exchange('AT+CMGR=0'))[0]).toMatch(/^\+CMGR: 1,,\d+$/);
  });

  it('deletes one message with AT+CMGD=<index> and all of them with <delflag> 4', async () => {
    sim = await startSimulator({ echo: false });
    for (const text of ['one', 'two', 'three']) sim.modem.injectIncoming({ sender: '+447700900555', text });
    await sim.terminal.waitFor((text) => text.split('+CMTI').length === 4);
    expect(await sim.terminal.exchange('AT+CMGD=1')).toEqual(['OK']);
    expect(await sim.terminal.exchange('AT+CMGD=?')).toEqual(['+CMGD: (0,2),(0-4)', 'OK']);
    expect(await sim.terminal.exchange('AT+CMGD=0,4')).toEqual(['OK']);
    expect(await sim.terminal.exchange('AT+CMGL=4')).toEqual(['OK']);
    expect(await sim.terminal.exchange('AT+CPMS?')).toEqual(['+CPMS: "SM",0,30,"SM",0,30,"SM",0,30', 'OK']);
  });

  it('keeps unread messages when <delflag> 1 deletes the read ones', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'read me' });
    await sim.terminal.waitForLine('+CMTI: "SM",0');
    await sim.terminal.exchange('AT+CMGR=0');
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'still unread' });
    await sim.terminal.waitForLine('+CMTI: "SM",1');
    expect(await sim.terminal.exchange('AT+CMGD=0,1')).toEqual(['OK']);
    expect([...listing(await sim.terminal.exchange('AT+CMGL=4')).keys()]).toEqual([1]);
  });

  it('delivers directly with +CMT when asked, without storing', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'direct' }, { delivery: 'cmt' });
    const [header, pdu] = await sim.terminal.waitForLine(/^[0-9A-F]{20,}$/);
    expect(header).toMatch(/^\+CMT: ,\d+$/);
    expect(decodeDeliver(pdu).text).toBe('direct');
    expect(await sim.terminal.exchange('AT+CMGL=4')).toEqual(['OK']);
  });

  it('follows AT+CNMI <mt>: 2 routes +CMT, 0 stores silently', async () => {
    sim = await startSimulator({ echo: false });
    await sim.terminal.exchange('AT+CNMI=2,2,0,0,0');
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'routed' });
    expect((await sim.terminal.waitForLine(/^[0-9A-F]{20,}$/))[0]).toMatch(/^\+CMT: ,\d+$/);
    await sim.terminal.exchange('AT+CNMI=2,0,0,0,0');
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'quiet' });
    expect(await sim.terminal.drain()).toBe('');
    expect([...listing(await sim.terminal.exchange('AT+CMGL=4')).keys()]).toEqual([0]);
  });

  it('holds indications while AT+CNMI <mode> is 0 and hands them over when it changes', async () => {
    sim = await startSimulator({ echo: false });
    await sim.terminal.exchange('AT+CNMI=0,1');
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'buffered' });
    expect(await sim.terminal.drain()).toBe('');
    await sim.terminal.write('AT+CNMI=2,1,0,0,0\r');
    expect(lines(await sim.terminal.waitFor((text) => text.includes('+CMTI')))).toEqual([
      'OK',
      '+CMTI: "SM",0',
    ]);
  });

  it('drops the held indications when AT+CNMI sets <bfr> 1', async () => {
    sim = await startSimulator({ echo: false });
    await sim.terminal.exchange('AT+CNMI=0,1');
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'buffered' });
    expect(await sim.terminal.exchange('AT+CNMI=2,1,0,0,1')).toEqual(['OK']);
    expect(await sim.terminal.drain()).toBe('');
  });

  it('carries a data message to its port', async () => {
    sim = await startSimulator({ echo: false });
    const bytes = Uint8Array.from([0xca, 0xfe, 0x00, 0x01]);
    sim.modem.injectIncoming({ sender: '+447700900555', data: { bytes, port: 2948 } });
    await sim.terminal.waitForLine('+CMTI: "SM",0');
    const [, pdu] = await sim.terminal.exchange('AT+CMGR=0');
    const message = decodeDeliver(pdu);
    expect(message.ports?.destination).toBe(2948);
    expect([...message.bytes]).toEqual([...bytes]);
  });

  it('drops a part left out of partOrder, as a network that lost it', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.injectIncoming({ sender: '+447700900555', text: LONG_TEXT }, { partOrder: [0] });
    await sim.terminal.waitForLine('+CMTI: "SM",0');
    const stored = [...listing(await sim.terminal.exchange('AT+CMGL=4')).values()];
    expect(stored.map((entry) => decodeDeliver(entry.pdu).concatenation?.partNumber)).toEqual([1]);
  });

  it('refuses a partOrder that names a part the message does not have', async () => {
    sim = await startSimulator({ echo: false });
    expect(() =>
      sim.modem.injectIncoming({ sender: '+447700900555', text: 'short' }, { partOrder: [1] }),
    ).toThrow(expect.objectContaining({ code: ErrorCode.ValidationFailed }));
  });

  it('keeps nothing it has no room for when the SIM store is full', async () => {
    sim = await startSimulator({ echo: false, storageSize: 1 });
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'fits' });
    sim.modem.injectIncoming({ sender: '+447700900555', text: 'does not fit' });
    expect(lines(await sim.terminal.waitFor((text) => text.includes('+CMTI')))).toEqual(['+CMTI: "SM",0']);
    expect(await sim.terminal.exchange('AT+CPMS?')).toEqual(['+CPMS: "SM",1,1,"SM",1,1,"SM",1,1', 'OK']);
  });
});
