import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encryptField } from '../../../server/messages/e2eEncryption.js';
import { type GatewayUnderTest, startGatewayUnderTest } from '../support/gatewayUnderTest.js';

/**
 * The Python client (android-sms-gateway/client-py), each call as
 * `android_sms_gateway/client.py` builds it: `send` posts `Message.asdict()` (camelCase, None
 * fields dropped, `withDeliveryReport` and `isEncrypted` always present) to {base}/message;
 * answers are read with `domain.py` from_dict, where `payload["…"]` is a required key.
 * (`android_sms_gateway/encryption.py` is not in the search index; the format is the one
 * `server/messages/e2eEncryption.ts` implements and tests against the upstream vector.)
 */
const passphrase = 'python client passphrase';

/** `domain.py` MessageState.from_dict: id, state, recipients[].phoneNumber/state required. */
const messageState = z.object({
  id: z.string(),
  state: z.enum(['Pending', 'Processed', 'Sent', 'Delivered', 'Failed', 'Cancelled']),
  recipients: z.array(z.object({ phoneNumber: z.string(), state: z.string() })),
  isHashed: z.boolean().optional(),
  isEncrypted: z.boolean().optional(),
});

describe('the Python client', () => {
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    const set = await gateway.request('PATCH', '/settings', { json: { encryption: { passphrase } } });
    expect(set.status, set.text).toBe(200);
  });
  afterAll(async () => {
    await gateway.stop();
  });

  /**
   * `BaseClient._encrypt` replaces `data_message.data` (already Base64) by its encryption and
   * every phone number by its encryption, and sets `is_encrypted`. The gateway decrypts first
   * and validates the plaintext afterwards.
   */
  it('sends an encrypted data message, which is decrypted and handed to the modem', async () => {
    const message = {
      phoneNumbers: [encryptField('+15557654321', passphrase, 1_000)],
      dataMessage: {
        data: encryptField(Buffer.from('ping').toString('base64'), passphrase, 1_000),
        port: 53739,
      },
      withDeliveryReport: true,
      isEncrypted: true,
      id: 'py-encrypted-data',
    };
    const sent = await gateway.request('POST', '/message', { json: message });
    expect(sent.status, sent.text).toBe(202);
    expect(messageState.parse(sent.body).isEncrypted).toBe(true);

    let state = '';
    await gateway.runUntil(async () => {
      state = messageState.parse((await gateway.request('GET', '/message/py-encrypted-data')).body).state;
      return state !== 'Pending';
    }, 'the encrypted data message leaving the queue');
    expect(['Processed', 'Sent', 'Delivered']).toContain(state);
  });

  it('still refuses a plain data message whose data is not Base64', async () => {
    const sent = await gateway.request('POST', '/message', {
      json: {
        phoneNumbers: ['+15557654321'],
        dataMessage: { data: 'not base64!', port: 1 },
        withDeliveryReport: true,
        isEncrypted: false,
      },
    });
    expect(sent.status).toBe(400);
    expect((sent.body as { message: string }).message).toContain('dataMessage.data');
  });

  /** `domain.py` TokenResponse.from_dict reads accessToken, tokenType, id, expiresAt. */
  it('reads the camelCase token fields', async () => {
    const issued = await gateway.request('POST', '/auth/token', { json: { scopes: ['messages:send'] } });
    expect(issued.status, issued.text).toBe(201);
    const token = z
      .object({
        accessToken: z.string(),
        tokenType: z.string(),
        id: z.string(),
        expiresAt: z.iso.datetime({ offset: true }),
      })
      .parse(issued.body);
    expect(token.tokenType).toBe('Bearer');
  });
});
