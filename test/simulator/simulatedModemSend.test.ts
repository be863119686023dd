import { afterEach, describe, expect, it } from 'vitest';
import { encodeDeliver, encodeSubmit } from '../../server/contract/pdu/index.js';
import { lines } from './atTerminal.js';
import { type SimulatorHarness, startSimulator } from './simulatorHarness.js';

function submitPart(text: string, requestStatusReport = false) {
  const [part] = encodeSubmit({
    recipient: '+447700900123',
    content: { kind: 'text', text },
    requestStatusReport,
    concatReference: 0,
  });
  if (!part) throw new Error('the codec produced no part');
  return part;
}

describe('SimulatedModem accepting sends with AT+CMGS', () => {
  let sim: SimulatorHarness;
  afterEach(async () => {
    await sim.stop();
  });

  async function start(options: Parameters<typeof startSimulator>[0] = {}): Promise<SimulatorHarness> {
    sim = await startSimulator({ echo: false, ...options });
    await sim.terminal.exchange('AT+CMEE=1');
    return sim;
  }

  it('prompts with "> " and no line end after it', async () => {
    const { terminal } = await start();
    await terminal.write('AT+CMGS=20\r');
    expect(await terminal.waitFor((text) => text.endsWith('> '))).toBe('\r\n> ');
    await terminal.write('\x1b');
    expect(lines(await terminal.waitFor((text) => text.includes('OK')))).toEqual(['OK']);
  });

  it('echoes the AT+CMGS line before the prompt while ATE1 is in force', async () => {
    sim = await startSimulator();
    const part = submitPart('echoed');
    await sim.terminal.write(`AT+CMGS=${part.tpduLength}\r`);
    expect(await sim.terminal.waitFor((text) => text.endsWith('> '))).toBe(
      `AT+CMGS=${part.tpduLength}\r\r\n> `,
    );
    await sim.terminal.write(`${part.hex}\x1a`);
    expect(lines(await sim.terminal.waitFor((text) => text.includes('OK')))).toEqual(['+CMGS: 0', 'OK']);
  });

  it('accepts an encoded SMS-SUBMIT, answers +CMGS with its reference and records the decoded PDU', async () => {
    const { terminal, modem, clock } = await start();
    const part = submitPart('Hello from the gateway');
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMGS: 0', 'OK']);
    expect(modem.accepted).toHaveLength(1);
    const [accepted] = modem.accepted;
    expect(accepted?.hex).toBe(part.hex);
    expect(accepted?.messageReference).toBe(0);
    expect(accepted?.acceptedAt).toBe(clock.now());
    expect(accepted?.decoded.recipient.number).toBe('+447700900123');
    expect(accepted?.decoded.text).toBe('Hello from the gateway');
    expect(accepted?.decoded.statusReportRequested).toBe(false);
  });

  it('gives each accepted send the next reference', async () => {
    const { terminal, modem } = await start();
    for (const expected of [0, 1, 2]) {
      const part = submitPart(`message ${expected}`);
      expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual([`+CMGS: ${expected}`, 'OK']);
    }
    expect(modem.accepted.map((accepted) => accepted.messageReference)).toEqual([0, 1, 2]);
  });

  it('wraps the reference from 255 back to 0', async () => {
    const { terminal, modem } = await start();
    const part = submitPart('again');
    for (let send = 0; send < 257; send++) await terminal.submitPdu(part.hex, part.tpduLength);
    expect(modem.accepted.slice(-2).map((accepted) => accepted.messageReference)).toEqual([255, 0]);
  });

  it('reads a command and its PDU written in one burst', async () => {
    const { terminal, modem } = await start();
    const part = submitPart('burst');
    await terminal.write(`AT+CMGS=${part.tpduLength}\r${part.hex}\x1a`);
    expect(lines(await terminal.waitFor((text) => text.includes('OK')))).toEqual(['> ', '+CMGS: 0', 'OK']);
    expect(modem.accepted).toHaveLength(1);
  });

  it('answers +CMS ERROR 500 to the next send only when told to fail once', async () => {
    const { terminal, modem } = await start();
    modem.failSends(500, 1);
    const part = submitPart('unlucky');
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMS ERROR: 500']);
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMGS: 0', 'OK']);
    expect(modem.accepted).toHaveLength(1);
  });

  it('keeps failing sends until the failures are cleared', async () => {
    const { terminal, modem } = await start();
    modem.failSends(42);
    const part = submitPart('congested');
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMS ERROR: 42']);
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMS ERROR: 42']);
    await terminal.exchange('AT+CMEE=2');
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMS ERROR: Congestion']);
    modem.clearFailures();
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMGS: 0', 'OK']);
    expect(modem.accepted).toHaveLength(1);
  });

  it('sends nothing when ESC cancels the PDU and answers OK', async () => {
    const { terminal, modem } = await start();
    const part = submitPart('never mind');
    await terminal.write(`AT+CMGS=${part.tpduLength}\r`);
    await terminal.waitFor((text) => text.endsWith('> '));
    await terminal.write(`${part.hex.slice(0, 10)}\x1b`);
    expect(lines(await terminal.waitFor((text) => text.includes('OK')))).toEqual(['OK']);
    expect(modem.accepted).toHaveLength(0);
    expect(await terminal.exchange('AT')).toEqual(['OK']);
  });

  it('refuses a PDU whose TPDU length differs from the declared one with +CMS ERROR 304', async () => {
    const { terminal, modem } = await start();
    const part = submitPart('length matters');
    expect(await terminal.submitPdu(part.hex, part.tpduLength + 1)).toEqual(['+CMS ERROR: 304']);
    expect(await terminal.submitPdu(part.hex, part.tpduLength - 1)).toEqual(['+CMS ERROR: 304']);
    expect(modem.accepted).toHaveLength(0);
  });

  it('refuses text that is not hex, and a PDU that is not an SMS-SUBMIT, with +CMS ERROR 304', async () => {
    const { terminal, modem } = await start();
    expect(await terminal.submitPdu('00ZZ', 1)).toEqual(['+CMS ERROR: 304']);
    // An SMS-DELIVER is what the network sends to a phone, not something a host may send.
    const [deliver] = encodeDeliver({
      sender: '+447700900123',
      content: { kind: 'text', text: 'wrong direction' },
      timestamp: { epochMs: Date.UTC(2026, 0, 1), timezoneOffsetMinutes: 0 },
    });
    expect(await terminal.submitPdu(deliver?.hex ?? '', deliver?.tpduLength ?? 0)).toEqual([
      '+CMS ERROR: 304',
    ]);
    expect(modem.accepted).toHaveLength(0);
  });

  it('refuses a send while not registered with +CMS ERROR 331', async () => {
    const { terminal, modem } = await start();
    modem.setRegistration(2);
    const part = submitPart('no network');
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMS ERROR: 331']);
    modem.setRegistration(5);
    expect(await terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMGS: 0', 'OK']);
  });

  it('keeps only the latest historyLimit commands and accepted PDUs', async () => {
    const { terminal, modem } = await start({ historyLimit: 2 });
    const part = submitPart('history');
    for (let send = 0; send < 3; send++) await terminal.submitPdu(part.hex, part.tpduLength);
    expect(modem.accepted.map((accepted) => accepted.messageReference)).toEqual([1, 2]);
    expect(modem.commands).toEqual([`AT+CMGS=${part.tpduLength}`, `AT+CMGS=${part.tpduLength}`]);
  });

  it('answers a send only after sendDelayMs has passed on its clock', async () => {
    const { terminal, modem, clock } = await start({ sendDelayMs: 2000 });
    const part = submitPart('slow network');
    await terminal.write(`AT+CMGS=${part.tpduLength}\r`);
    await terminal.waitFor((text) => text.endsWith('> '));
    await terminal.write(`${part.hex}\x1a`);
    await clock.advance(1999);
    expect(await terminal.drain()).toBe('');
    expect(modem.accepted).toHaveLength(0);
    await clock.advance(1);
    expect(lines(await terminal.waitFor((text) => text.includes('OK')))).toEqual(['+CMGS: 0', 'OK']);
  });
});
