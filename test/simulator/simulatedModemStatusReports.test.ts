import { afterEach, describe, expect, it } from 'vitest';
import { decodePdu, encodeSubmit } from '../../server/contract/pdu/index.js';
import { lines } from './atTerminal.js';
import { type SimulatorHarness, startSimulator } from './simulatorHarness.js';

const RECIPIENT = '+447700900123';

function reportedPart() {
  const [part] = encodeSubmit({
    recipient: RECIPIENT,
    content: { kind: 'text', text: 'tell me when it arrives' },
    requestStatusReport: true,
    concatReference: 0,
  });
  if (!part) throw new Error('the codec produced no part');
  return part;
}

function decodeReport(hex: string | undefined) {
  const decoded = decodePdu(hex ?? '');
  if (decoded.type !== 'status-report') throw new Error(`expected a status report, got ${decoded.type}`);
  return decoded;
}

describe('SimulatedModem status reports', () => {
  let sim: SimulatorHarness;
  afterEach(async () => {
    await sim.stop();
  });

  async function sendReported(options: Parameters<typeof startSimulator>[0] = {}) {
    sim = await startSimulator({ echo: false, statusReportDelayMs: 5000, ...options });
    await sim.terminal.exchange('AT+CMEE=1');
    const part = reportedPart();
    expect(await sim.terminal.submitPdu(part.hex, part.tpduLength)).toEqual(['+CMGS: 0', 'OK']);
    return sim;
  }

  it('stores the report after the delay and indicates it with +CDSI', async () => {
    const { terminal, clock } = await sendReported();
    await clock.advance(4999);
    expect(await terminal.drain()).toBe('');
    await clock.advance(1);
    expect(lines(await terminal.waitFor((text) => text.endsWith('\r\n')))).toEqual(['+CDSI: "SM",0']);
  });

  it('can indicate the report right after the OK of the send, as real modems sometimes do', async () => {
    sim = await startSimulator({ echo: false, statusReportDelayMs: 0 });
    const part = reportedPart();
    await sim.terminal.write(`AT+CMGS=${part.tpduLength}\r${part.hex}\x1a`);
    await sim.terminal.waitFor((text) => text.includes('OK'));
    await sim.clock.advance(0);
    expect(lines(await sim.terminal.waitFor((text) => text.includes('+CDSI')))).toEqual(['+CDSI: "SM",0']);
  });

  it('lets the host read the stored report with AT+CMGR and delete it with AT+CMGD', async () => {
    const { terminal, clock } = await sendReported();
    await clock.advance(5000);
    await terminal.waitForLine('+CDSI: "SM",0');
    const [header, pdu, final] = await terminal.exchange('AT+CMGR=0');
    expect(final).toBe('OK');
    const report = decodeReport(pdu);
    // The PDU starts with the SMSC field (length octet + that many octets); <length> excludes it.
    const smscFieldOctets = 1 + Number.parseInt(pdu?.slice(0, 2) ?? '', 16);
    expect(header).toBe(`+CMGR: 0,,${(pdu?.length ?? 0) / 2 - smscFieldOctets}`);
    expect(report.messageReference).toBe(0);
    expect(report.recipient.number).toBe(RECIPIENT);
    expect(report.status).toBe(0x00);
    expect(report.dischargeTime.epochMs).toBe(clock.now());
    expect(report.serviceCentreTimestamp.epochMs).toBe(clock.now() - 5000);
    expect(await terminal.exchange('AT+CMGD=0')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CMGR=0')).toEqual(['OK']);
  });

  it('routes the report directly with +CDS when configured so', async () => {
    const { terminal, clock } = await sendReported({ statusReportMode: 'cds' });
    await clock.advance(5000);
    const [header, pdu] = await terminal.waitForLine(/^[0-9A-F]{20,}$/);
    expect(header).toMatch(/^\+CDS: \d+$/);
    expect(decodeReport(pdu).messageReference).toBe(0);
    expect(await terminal.exchange('AT+CPMS?')).toEqual(['+CPMS: "SM",0,30,"SM",0,30,"SM",0,30', 'OK']);
  });

  it('follows AT+CNMI <ds>: 1 routes +CDS even when the option said +CDSI', async () => {
    sim = await startSimulator({ echo: false, statusReportMode: 'cdsi' });
    await sim.terminal.exchange('AT+CNMI=2,1,0,1,0');
    const part = reportedPart();
    await sim.terminal.submitPdu(part.hex, part.tpduLength);
    await sim.clock.advance(1000);
    expect((await sim.terminal.waitForLine(/^[0-9A-F]{20,}$/))[0]).toMatch(/^\+CDS: \d+$/);
  });

  it('reports the TP-Status set by setStatusReportOutcome', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.setStatusReportOutcome(0x46);
    const part = reportedPart();
    await sim.terminal.submitPdu(part.hex, part.tpduLength);
    await sim.clock.advance(1000);
    await sim.terminal.waitForLine('+CDSI: "SM",0');
    const [, pdu] = await sim.terminal.exchange('AT+CMGR=0');
    expect(decodeReport(pdu).status).toBe(0x46);
  });

  it('sends no report for a message that did not request one', async () => {
    sim = await startSimulator({ echo: false });
    const [part] = encodeSubmit({
      recipient: RECIPIENT,
      content: { kind: 'text', text: 'no report' },
      requestStatusReport: false,
      concatReference: 0,
    });
    await sim.terminal.submitPdu(part?.hex ?? '', part?.tpduLength ?? 0);
    await sim.clock.advance(60_000);
    expect(await sim.terminal.drain()).toBe('');
    expect(sim.clock.pendingTimers).toBe(0);
  });

  it('expects AT+CNMA for a +CDS after AT+CSMS=1, and refuses one that is not due', async () => {
    const { terminal, clock } = await sendReported({ statusReportMode: 'cds' });
    expect(await terminal.exchange('AT+CNMA')).toEqual(['+CMS ERROR: 340']);
    expect(await terminal.exchange('AT+CSMS=1')).toEqual(['+CSMS: 1,1,1', 'OK']);
    await clock.advance(5000);
    await terminal.waitForLine(/^[0-9A-F]{20,}$/);
    expect(await terminal.exchange('AT+CNMA')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CNMA')).toEqual(['+CMS ERROR: 340']);
  });

  it('cancels a pending report when it stops', async () => {
    const { clock, modem } = await sendReported();
    expect(clock.pendingTimers).toBe(1);
    await modem.stop();
    expect(clock.pendingTimers).toBe(0);
  });
});
