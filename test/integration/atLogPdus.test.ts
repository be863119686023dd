/**
 * Issue 36 item 9: the AT log (`GET /gateway/v1/devices/{id}/at-log`, scope `logs:read`) held
 * every SMS sent and received as a PDU, and so did the DEBUG trace of `--log-level at=DEBUG`.
 * Both now show each PDU as its size, unless the gateway runs with `--show-pdus`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodePdu } from '../../server/contract/pdu/index.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { type ApiMessage, waitForReadyModems, waitForState } from './support/apiReads.js';

interface AtLogLine {
  direction: 'in' | 'out';
  line: string;
}

/** Every run of hex digits in `text` that decodes as an SMS PDU: a message anyone could read. */
function readablePdus(text: string): string[] {
  return [...text.matchAll(/[0-9A-F]{20,}/gi)].flatMap(([run]) => {
    try {
      decodePdu(run);
      return [run];
    } catch {
      return [];
    }
  });
}

/** Sends a message with a delivery report and receives one; resolves with the PDU the modem took. */
async function exchangeMessages(harness: GatewayHarness): Promise<string> {
  const sent = await harness.api.post<ApiMessage>('/messages', {
    textMessage: { text: 'The door code is 4711' },
    phoneNumbers: ['+447700900123'],
    withDeliveryReport: true,
  });
  expect(sent.status).toBe(202);
  await waitForState(harness.api, `/messages/${sent.body.id}`, 'Delivered');
  harness.ptyModem(0).injectIncoming({ sender: '+447700900456', text: 'Thanks, see you at 7' });
  await vi.waitFor(async () => expect((await harness.api.get<unknown[]>('/inbox')).body).toHaveLength(1), {
    timeout: 10_000,
    interval: 50,
  });
  const [accepted] = harness.acceptedBy(0);
  if (!accepted) throw new Error('the modem took no PDU');
  return accepted.hex;
}

async function atLog(harness: GatewayHarness): Promise<AtLogLine[]> {
  const token = await harness.api.post<{ access_token: string }>('/auth/token', { scopes: ['logs:read'] });
  const [device] = (await harness.api.get<{ id: string }[]>('/devices')).body;
  const response = await fetch(`${harness.url}/gateway/v1/devices/${device?.id}/at-log?limit=500`, {
    headers: { authorization: `Bearer ${token.body.access_token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as AtLogLine[];
}

describe('the AT log of a modem that sent and received an SMS', () => {
  let harness: GatewayHarness;
  let sentPdu: string;
  let lines: AtLogLine[];

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ statusReportDelayMs: 100 }),
      options: { moduleLogLevels: { at: 'DEBUG' } },
    });
    await waitForReadyModems(harness.api, 1);
    sentPdu = await exchangeMessages(harness);
    lines = await atLog(harness);
  }, 40_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('holds no PDU a reader could decode, sent, received or status report', () => {
    expect(lines.flatMap(({ line }) => readablePdus(line))).toEqual([]);
  });

  it('shows where each PDU was and how many bytes were hidden', () => {
    const shown = lines.map(({ direction, line }) => `${direction} ${line}`);
    expect(shown).toContain(`out <PDU hidden: ${sentPdu.length / 2} bytes><Ctrl-Z>`);
    // The status report (+CDSI, then +CMGR) and the received SMS (+CMTI, then +CMGR).
    const read = shown.filter((line, index) => /^in <PDU hidden: \d+ bytes>$/.test(line) && index > 0);
    expect(read.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps them out of the DEBUG trace of the AT sessions too', () => {
    const traced = harness.logs.filter((record) => record.module.startsWith('at:'));
    expect(traced.some((record) => record.message.includes('<PDU hidden: '))).toBe(true);
    expect(traced.flatMap((record) => readablePdus(record.message))).toEqual([]);
  });
});

describe('the AT log with --show-pdus', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ statusReportDelayMs: 100 }),
      options: { showPdus: true },
    });
    await waitForReadyModems(harness.api, 1);
  }, 40_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('shows every PDU as it crossed the line', async () => {
    const sentPdu = await exchangeMessages(harness);
    const lines = await atLog(harness);
    expect(lines).toContainEqual(expect.objectContaining({ direction: 'out', line: `${sentPdu}<Ctrl-Z>` }));
    expect(lines.filter(({ line }) => line.includes('<PDU hidden'))).toEqual([]);
    expect(lines.flatMap(({ line }) => readablePdus(line)).length).toBeGreaterThanOrEqual(3);
  });
});
