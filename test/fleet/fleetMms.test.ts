/**
 * Fleet mode's device pull (issue 52): `GET /message` asks for the gateway's processing order
 * (`order=lifo|fifo`, the server's handlers/messages/params.go), and an MMS the private server
 * holds (its MobileMessageDTO's `mmsMessage`) reaches the phone whose app sends MMS, under the
 * server's id, attachments and all. The server is the contract double of its device API
 * (test/support/fleetServerDouble.ts: the Go server cannot be built here); the phone is the
 * double of the app's Local server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AndroidPhoneDouble, fastPhonePolling } from '../support/androidPhone.js';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { waitForFleetState, waitForReport } from './support/fleetReads.js';

describe('fleet mode: the pull order and MMS', () => {
  let double: FleetServerDouble;
  let phone: AndroidPhoneDouble;
  let harness: GatewayHarness;

  beforeAll(async () => {
    double = await startFleetServerDouble();
    phone = new AndroidPhoneDouble();
    phone.takesMms = true;
    const phonePort = await phone.start();
    harness = await startGatewayHarness({
      fleetPollIntervalMs: 500,
      phoneTiming: fastPhonePolling,
      options: {
        fleetServer: { url: double.baseUrl, token: double.serverKey },
        phones: [phone.urlWithCredentials(phonePort)],
      },
    });
    await waitForFleetState(harness.api, 'connected');
  });

  afterAll(async () => {
    await harness?.close();
    await double?.close();
    await phone?.stop();
  });

  it('asks for the messages in the gateway’s processing order', async () => {
    await pollUntil(() => double.pullOrders.length > 0, { what: 'a first GET /message' });
    expect(double.pullOrders.every((order) => order === 'lifo')).toBe(true);
    const changed = await harness.api.patch('/settings', { messages: { processing_order: 'FIFO' } });
    expect(changed.status).toBe(200);
    const before = double.pullOrders.length;
    double.enqueue({ text: 'after the change', phoneNumbers: ['+447700900401'] });
    await pollUntil(() => double.pullOrders.length > before, { what: 'a GET /message after the change' });
    expect(double.pullOrders.slice(before).every((order) => order === 'fifo')).toBe(true);
  });

  it('hands an MMS of the server to the phone that sends MMS, and reports it', async () => {
    const attachment = {
      contentType: 'image/png',
      name: 'map.png',
      data: Buffer.alloc(4_096, 3).toString('base64'),
    };
    const message = double.enqueue({
      mms: { subject: 'Directions', text: 'See the map', attachments: [attachment] },
      phoneNumbers: ['+447700900402'],
    });
    await pollUntil(() => phone.messages.has(message.id), { what: 'the MMS at the phone' });
    expect(phone.messages.get(message.id)?.mmsMessage).toEqual({
      subject: 'Directions',
      text: 'See the map',
      attachments: [attachment],
    });
    await phone.advance(message.id, 'Sent');
    await waitForReport(double, message.id, 'Sent');
    expect(double.message(message.id)?.state).toBe('Sent');
  });
});
