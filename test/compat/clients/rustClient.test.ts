import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';
import { type GatewayUnderTest, startGatewayUnderTest } from '../support/gatewayUnderTest.js';

/**
 * The Rust client (android-sms-gateway/client-rs), each call as `src/client.rs` builds it, each
 * answer decoded with its serde rules: a field without `#[serde(default)]` or `Option` is
 * required, `DateTime<Utc>` needs an RFC 3339 string, `rename_all = "camelCase"` names the keys.
 */
const rfc3339 = z.iso.datetime({ offset: true });

/** `src/types/webhook.rs` SmsReceivedPayload: SmsEventPayload flattened, then message, receivedAt. */
const smsReceivedPayload = z.object({
  messageId: z.string(),
  phoneNumber: z.string(),
  sender: z.string(),
  recipient: z.string().optional(),
  simNumber: z.number().int().min(0).max(255).optional(),
  message: z.string(),
  receivedAt: rfc3339,
});

/** `src/types/auth.rs` TokenResponse: camelCase; refreshToken optional, the rest required. */
const tokenResponse = z.object({
  id: z.string(),
  tokenType: z.string(),
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  expiresAt: rfc3339,
});

/**
 * `src/types/message.rs` MessageState: `device_id: String` has no default, so a state without
 * `deviceId` fails to decode; states keys must be ProcessingState names.
 */
const messageState = z.object({
  id: z.string(),
  deviceId: z.string().min(1),
  state: z.enum(['Pending', 'Cancelling', 'Cancelled', 'Processed', 'Sent', 'Delivered', 'Failed']),
  isHashed: z.boolean().optional(),
  isEncrypted: z.boolean().optional(),
  recipients: z.array(z.object({ phoneNumber: z.string(), state: z.string(), error: z.string().optional() })),
  states: z.partialRecord(
    z.enum(['Pending', 'Cancelling', 'Cancelled', 'Processed', 'Sent', 'Delivered', 'Failed']),
    rfc3339,
  ),
});

describe('the Rust client', () => {
  let gateway: GatewayUnderTest;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await gateway.stop();
  });

  /**
   * `refresh_inbox` posts `src/types/inbox.rs` InboxRefreshRequest to /inbox/refresh:
   * camelCase, `webhookDelivery: "Batch"`, `messageTypes` when set; batch payloads decode as
   * `SmsBatchReceivedPayload { messages: Vec<SmsReceivedPayload> }` (src/types/webhook.rs).
   */
  it('gets one sms:batch:received webhook, oldest first, for an inbox refresh with webhookDelivery Batch', async () => {
    const hook = await gateway.request('POST', '/webhooks', {
      json: { id: 'rs-batch', url: receiver.url, event: 'sms:batch:received' },
    });
    expect(hook.status, hook.text).toBe(201);
    await gateway.receiveSms('+15550001111', 'first');
    await gateway.receiveSms('+15550002222', 'second');

    const since = new Date(gateway.clock.now() - 3_600_000).toISOString().replace('.000Z', 'Z');
    const until = new Date(gateway.clock.now() + 1_000).toISOString().replace('.000Z', 'Z');
    const refresh = await gateway.request('POST', '/inbox/refresh', {
      json: { since, until, messageTypes: ['SMS'], webhookDelivery: 'Batch' },
    });
    expect(refresh.status, refresh.text).toBeLessThan(300);
    await gateway.runUntil(() => receiver.requests.length > 0, 'the batch webhook');

    const [delivery] = receiver.requests;
    const envelope = z
      .object({
        event: z.literal('sms:batch:received'),
        payload: z.object({ messages: z.array(smsReceivedPayload) }),
      })
      .parse(JSON.parse(delivery?.body ?? ''));
    expect(envelope.payload.messages.map((message) => message.message)).toEqual(['first', 'second']);
  });

  /**
   * `generate_token` posts TokenRequest (`{ttl?, scopes}`) to /auth/token with the client's own
   * auth; `refresh_token` posts no body with `Bearer <refresh token>`; `revoke_token` sends
   * DELETE /auth/token/{jti} (src/client.rs).
   */
  it('generates, refreshes and revokes a token, decoding each answer as TokenResponse', async () => {
    const issued = await gateway.request('POST', '/auth/token', {
      json: { ttl: 600, scopes: ['messages:send'] },
    });
    expect(issued.status, issued.text).toBe(201);
    const first = tokenResponse.parse(issued.body);

    const refreshed = await gateway.request('POST', '/auth/token/refresh', {
      authorization: `Bearer ${first.refreshToken}`,
    });
    expect(refreshed.status, refreshed.text).toBe(201);
    const second = tokenResponse.parse(refreshed.body);
    expect(second.accessToken).not.toBe(first.accessToken);

    const revoked = await gateway.request('DELETE', `/auth/token/${encodeURIComponent(second.id)}`);
    expect(revoked.status).toBe(204);
    const afterRevoke = await gateway.request('GET', '/messages', {
      authorization: `Bearer ${second.accessToken}`,
    });
    expect(afterRevoke.status).toBe(401);
  });

  /**
   * `send` posts Message (camelCase; `isEncrypted` and `priority` always present, serde
   * `#[serde(default)]` without skip) to /messages; `get_message_state` and `cancel_message`
   * use /messages/{id} (src/client.rs).
   */
  it('decodes the 202 of a send, the Pending state and the Cancelled state, each with a deviceId', async () => {
    const sent = await gateway.request('POST', '/messages', {
      json: {
        id: 'rs-pending',
        textMessage: { text: 'hi' },
        phoneNumbers: ['+15551230000'],
        isEncrypted: false,
        priority: 0,
      },
    });
    expect(sent.status, sent.text).toBe(202);
    const accepted = messageState.parse(sent.body);
    expect(accepted.state).toBe('Pending');

    const read = messageState.parse((await gateway.request('GET', '/messages/rs-pending')).body);
    expect(read.deviceId).toBe(accepted.deviceId);

    const cancelled = await gateway.request('DELETE', '/messages/rs-pending');
    expect(cancelled.status).toBeLessThan(300);
    const after = messageState.parse((await gateway.request('GET', '/messages/rs-pending')).body);
    expect(after.state).toBe('Cancelled');
    expect(after.deviceId).toBe(accepted.deviceId);
  });

  /**
   * `register_webhook` posts `src/types/webhook.rs` Webhook, which has no `rename_all`: the
   * device filter goes out as `device_id`.
   */
  it('registers a webhook for one device with device_id', async () => {
    const devices = (await gateway.request('GET', '/devices')).body as { id: string }[];
    const deviceId = devices[0]?.id ?? '';
    expect(deviceId).not.toBe('');
    const created = await gateway.request('POST', '/webhooks', {
      json: { id: 'rs-device', device_id: deviceId, url: 'https://example.com/rs', event: 'sms:received' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: 'rs-device', deviceId });
  });
});
