/**
 * Issue 2 acceptance: a message goes in over HTTP on loopback, through the real serialport
 * binding on a pty, to the simulated modem on the far end, and its state comes back over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePdu } from '../../server/contract/pdu/index.js';
import type { AcceptedPdu } from '../../server/devices/simulator/simulatedModem.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { type ApiMessage, messageTotal, waitForReadyModems, waitForState } from './support/apiReads.js';

// UCS-2 (TS 23.038 §6.2.3): 67 characters per concatenated part, so 150 Cyrillic characters
// need exactly three parts.
const threePartText = 'Съешь же ещё этих мягких французских булок, да выпей чаю. '.repeat(3).slice(0, 150);

function pdusTo(accepted: readonly AcceptedPdu[], phoneNumber: string): AcceptedPdu[] {
  return accepted.filter((pdu) => pdu.decoded.recipient.number === phoneNumber);
}

describe('sending a message over HTTP through a real serial port', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ statusReportDelayMs: 200 }),
    });
    await waitForReadyModems(harness.api, 1);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('sends a three-part Unicode message as three PDUs that decode back to the text', async () => {
    const phoneNumber = '+447700900201';
    const response = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: threePartText },
      phoneNumbers: [phoneNumber],
    });
    expect(response.status).toBe(202);
    const location = response.headers.get('location');
    expect(location).toBe(`/messages/${response.body.id}`);

    const sent = await waitForState(harness.api, location ?? '', 'Sent');
    expect(sent.recipients).toEqual([{ phoneNumber, state: 'Sent' }]);

    const pdus = pdusTo(harness.acceptedBy(0), phoneNumber);
    expect(pdus).toHaveLength(3);
    const decoded = pdus.map((pdu) => decodePdu(pdu.hex));
    const parts = decoded.map((pdu) => {
      if (pdu.type !== 'submit') throw new Error(`modem accepted a ${pdu.type}`);
      return pdu;
    });
    expect(parts.map((part) => part.encoding)).toEqual(['ucs2', 'ucs2', 'ucs2']);
    expect(parts.map((part) => part.concatenation?.partNumber)).toEqual([1, 2, 3]);
    expect(new Set(parts.map((part) => part.concatenation?.reference)).size).toBe(1);
    expect(parts.map((part) => part.text).join('')).toBe(threePartText);
  });

  it('marks the message Failed with the modem code when the modem answers +CMS ERROR 500', async () => {
    harness.ptyModem(0).failSends(500, 1);
    const phoneNumber = '+447700900202';
    const response = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: 'refused by the network' },
      phoneNumbers: [phoneNumber],
    });
    expect(response.status).toBe(202);

    const failed = await waitForState(harness.api, `/messages/${response.body.id}`, 'Failed');
    expect(failed.recipients).toHaveLength(1);
    expect(failed.recipients[0]?.state).toBe('Failed');
    expect(failed.recipients[0]?.error).toMatch(/\b500\b/);
    expect(failed.recipients[0]?.failure).toEqual({ code: 'modem-refused', modemCode: 500 });
    expect(pdusTo(harness.acceptedBy(0), phoneNumber)).toHaveLength(0);
  });

  it('answers 400 naming the field for a malformed body and stores nothing', async () => {
    const before = await messageTotal(harness.api);
    const cases: { body: unknown; field: string }[] = [
      { body: { textMessage: { text: 'hi' }, phoneNumbers: '+447700900203' }, field: 'phoneNumbers' },
      { body: { textMessage: { text: '' }, phoneNumbers: ['+447700900203'] }, field: 'textMessage.text' },
      { body: { textMessage: { text: 'hi' }, phoneNumbers: ['+447700900203'], ttl: -5 }, field: 'ttl' },
    ];
    for (const { body, field } of cases) {
      const response = await harness.api.post<{ message: string }>('/messages', body);
      expect(response.status).toBe(400);
      expect(response.body.message.startsWith(`${field}:`)).toBe(true);
    }
    const broken = await harness.api.request<{ message: string }>('POST', '/messages', {
      raw: '{"textMessage": {"text": "hi"}, "phoneNumbers": [',
    });
    expect(broken.status).toBe(400);
    expect(await messageTotal(harness.api)).toBe(before);
  });

  it.each([
    ['the root', ''],
    ['the Cloud', '/3rdparty/v1'],
    ['the Private', '/api/3rdparty/v1'],
  ])('answers with a Location a client of %s mount can GET as is', async (_name, mount) => {
    const response = await harness.api.post<ApiMessage>(`${mount}/messages`, {
      textMessage: { text: `via ${mount || '/'}` },
      phoneNumbers: ['+447700900204'],
    });
    expect(response.status).toBe(202);
    const location = response.headers.get('location') ?? '';
    expect(location).toBe(`${mount}/messages/${response.body.id}`);
    // Resolved against the URL the client posted to, as an HTTP client does (RFC 9110 §10.2.2).
    const resolved = new URL(location, `${harness.url}${mount}/messages`);
    const read = await harness.api.get<ApiMessage>(`${resolved.pathname}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(response.body.id);
  });

  it('marks the message Delivered when the status report says delivered', async () => {
    harness.ptyModem(0).setStatusReportOutcome(0x00);
    const response = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: 'please confirm delivery' },
      phoneNumbers: ['+447700900205'],
      withDeliveryReport: true,
    });
    expect(response.status).toBe(202);

    const delivered = await waitForState(harness.api, `/messages/${response.body.id}`, 'Delivered');
    expect(delivered.recipients).toEqual([{ phoneNumber: '+447700900205', state: 'Delivered' }]);
    expect(Object.keys(delivered.states)).toEqual(
      expect.arrayContaining(['Pending', 'Processed', 'Sent', 'Delivered']),
    );
  });

  it('marks the message Failed when the status report carries TP-Status 0x41', async () => {
    // TS 23.040 §9.2.3.15: 0x41 is a permanent error, "incompatible destination".
    harness.ptyModem(0).setStatusReportOutcome(0x41);
    try {
      const response = await harness.api.post<ApiMessage>('/messages', {
        textMessage: { text: 'this one will not arrive' },
        phoneNumbers: ['+447700900206'],
        withDeliveryReport: true,
      });
      expect(response.status).toBe(202);

      const failed = await waitForState(harness.api, `/messages/${response.body.id}`, 'Failed');
      expect(failed.states.Sent).toBeDefined();
      expect(failed.recipients[0]?.state).toBe('Failed');
      expect(failed.recipients[0]?.error).toMatch(/0x41/);
      expect(failed.recipients[0]?.failure).toEqual({ code: 'delivery-failed', modemCode: 0x41 });
    } finally {
      harness.ptyModem(0).setStatusReportOutcome(0x00);
    }
  });
});
