import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import { AndroidPhoneDouble, fastPhonePolling, phonePatience } from '../support/androidPhone.js';
import { startGatewayHarness } from '../support/gatewayHarness.js';

/**
 * MMS out (issue 52, docs/phones.md "MMS"): upstream's `mmsMessage` accepted as the app takes it,
 * sent only through a phone whose app sends MMS (probed), never through a modem; with no such
 * phone it waits and says why. The phone is the contract double of the app's Local server
 * (test/support/androidPhone.ts), the modem a simulator behind a pty and the real serialport
 * binding.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface DeviceBody {
  id: string;
  modem: { kind?: string; status: string; capabilities?: string[] };
}

/** A photo's worth of bytes: past the ordinary body limit, within the app's 2 MiB of Base64. */
const photo = Buffer.alloc(900_000, 7).toString('base64');
const mms = {
  subject: 'Your order',
  text: 'Here is the receipt',
  attachments: [{ contentType: 'image/jpeg', name: 'receipt.jpg', data: photo }],
};

async function phoneModemAndGateway(takesMms: boolean) {
  const phone = new AndroidPhoneDouble();
  phone.takesMms = takesMms;
  const port = await phone.start();
  cleanups.push(() => phone.stop());
  const harness = await startGatewayHarness({
    ptyModems: 1,
    phoneTiming: fastPhonePolling,
    options: { phones: [phone.urlWithCredentials(port)] },
  });
  cleanups.push(() => harness.close());
  const devices = async () => (await harness.api.get<DeviceBody[]>('/devices')).body;
  const phoneDevice = async () => (await devices()).find((device) => device.modem.kind === 'android');
  await vi.waitFor(async () => {
    const all = await devices();
    expect(all.map((device) => device.modem.status)).toEqual(['ready', 'ready']);
  }, phonePatience);
  return { phone, harness, phoneDevice, devices };
}

describe('MMS out', () => {
  it('goes through the phone whose app sends MMS, attachments as sent, kept beside the row', async () => {
    const { phone, harness, phoneDevice, devices } = await phoneModemAndGateway(true);
    await vi.waitFor(
      async () => expect((await phoneDevice())?.modem.capabilities).toContain('mms'),
      phonePatience,
    );
    const modem = (await devices()).find((device) => device.modem.kind !== 'android');
    expect(modem?.modem.capabilities).not.toContain('mms');

    const posted = await harness.api.post<{ id: string; mmsMessage: unknown }>('/message', {
      phoneNumbers: ['+15551230501', '+15551230502'],
      mmsMessage: mms,
      withDeliveryReport: true,
    });
    expect(posted.status).toBe(202);
    expect(posted.body.mmsMessage).toEqual({
      subject: 'Your order',
      text: 'Here is the receipt',
      attachments: [{ contentType: 'image/jpeg', name: 'receipt.jpg', size: 900_000 }],
    });
    const { id } = posted.body;
    await vi.waitFor(() => expect(phone.messages.has(`${id}-1`)).toBe(true), phonePatience);
    expect(phone.messages.get(id)?.mmsMessage).toEqual(mms);
    expect(phone.messages.get(`${id}-1`)?.phoneNumbers).toEqual(['+15551230502']);
    expect(harness.acceptedBy(0)).toEqual([]);
    await phone.advance(id, 'Sent');
    await vi.waitFor(
      async () =>
        expect(
          (await harness.api.get<{ recipients: { state: string }[] }>(`/messages/${id}`)).body.recipients[0]
            ?.state,
        ).toBe('Sent'),
      phonePatience,
    );

    // The bytes are in their own table, not in the message's row.
    const outside = openSqlite(join(harness.dataDir, databaseFileName), { readOnly: true });
    try {
      const row = outside
        .prepare<[string], { body: string }>('SELECT body FROM messages WHERE id = ?')
        .get(id);
      expect(row?.body.length).toBeLessThan(2_000);
      const stored = outside
        .prepare<[string], { content_type: string; data: Uint8Array }>(
          'SELECT content_type, data FROM message_attachments WHERE message_id = ?',
        )
        .all(id);
      expect(stored.map((attachment) => [attachment.content_type, attachment.data.byteLength])).toEqual([
        ['image/jpeg', 900_000],
      ]);
    } finally {
      outside.close();
    }
  });

  it('waits, saying why, while no phone sends MMS, and goes once the app is updated', async () => {
    const { phone, harness, phoneDevice, devices } = await phoneModemAndGateway(false);
    const posted = await harness.api.post<{ id: string }>('/messages', {
      phoneNumbers: ['+15551230503'],
      mmsMessage: { text: 'Only text, still an MMS' },
    });
    expect(posted.status).toBe(202);
    const { id } = posted.body;
    await vi.waitFor(async () => {
      const waits = await harness.api.get<Record<string, { reason: string }>>(
        `/gateway/v1/messages/waiting?ids=${id}`,
      );
      expect(waits.body[id]?.reason).toBe('no-mms-device');
    }, phonePatience);
    // An SMS behind it still goes, through the modem it names.
    const modem = (await devices()).find((device) => device.modem.kind !== 'android');
    const sms = await harness.api.post<{ id: string }>('/messages', {
      phoneNumbers: ['+15551230504'],
      textMessage: { text: 'An ordinary SMS' },
      deviceId: modem?.id,
    });
    expect(sms.status).toBe(202);
    await vi.waitFor(
      () => expect(harness.acceptedBy(0).map((pdu) => pdu.decoded.text)).toContain('An ordinary SMS'),
      phonePatience,
    );
    expect(phone.messages.has(id)).toBe(false);

    phone.takesMms = true;
    phone.appVersion = '1.41.0';
    await vi.waitFor(
      async () => expect((await phoneDevice())?.modem.capabilities).toContain('mms'),
      phonePatience,
    );
    await vi.waitFor(
      () =>
        expect(phone.messages.get(id)?.mmsMessage).toEqual({
          text: 'Only text, still an MMS',
          attachments: [],
        }),
      phonePatience,
    );
    expect(harness.acceptedBy(0).some((pdu) => pdu.decoded.text === 'Only text, still an MMS')).toBe(false);
  });

  it.each([
    ['an MMS with neither text nor attachment', 'mmsMessage.attachments', { mmsMessage: {} }],
    [
      'an attachment without a type',
      'mmsMessage.attachments[0].contentType',
      { mmsMessage: { attachments: [{ contentType: '', data: 'AAAA' }] } },
    ],
    [
      'an attachment that is not Base64',
      'mmsMessage.attachments[0].data',
      { mmsMessage: { attachments: [{ contentType: 'image/png', data: 'not base64!' }] } },
    ],
    [
      'an attachment over 2 MiB of Base64',
      'mmsMessage.attachments[0].data',
      { mmsMessage: { attachments: [{ contentType: 'video/mp4', data: 'A'.repeat(2 * 1024 * 1024 + 4) }] } },
    ],
    ['an MMS beside a text', 'mmsMessage', { mmsMessage: { text: 'hi' }, textMessage: { text: 'hi' } }],
    ['an encrypted MMS', 'isEncrypted', { mmsMessage: { text: 'hi' }, isEncrypted: true }],
  ])('refuses %s, naming %s, and stores nothing', async (_case, field, content) => {
    const harness = await startGatewayHarness({ simulatedModems: 1 });
    cleanups.push(() => harness.close());
    const answer = await harness.api.post<{ field?: string }>('/messages', {
      phoneNumbers: ['+15551230505'],
      ...content,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe(field);
    expect((await harness.api.get<unknown[]>('/messages')).body).toEqual([]);
  });
});
