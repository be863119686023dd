import { z } from 'zod';
import type { Clock } from '../../clock/clock.js';
import { phoneFailed } from '../../contract/domain/failureTexts.js';
import { signatureProblem } from '../../contract/domain/webhookSignature.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { MessageRepository } from '../../store/repositories.js';
import type { AndroidPhone } from './androidPhone.js';
import type { OutstandingSend } from './phoneLedger.js';
import { plainPhoneError } from './phoneMessages.js';

/**
 * A phone's MMS events, which our inbox keeps no record of: passed on under the same name with
 * the app's payload (modules/webhooks/payload/MmsReceivedPayload.kt, MmsDownloadedPayload.kt).
 */
export const relayedPhoneEvents = ['mms:received', 'mms:downloaded'] as const;
export type RelayedPhoneEvent = (typeof relayedPhoneEvents)[number];

/** Events we register on a USB phone (modules/webhooks/domain/WebHookEvent.kt). */
export const phoneWebhookEvents = [
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'sms:received',
  'sms:data-received',
  ...relayedPhoneEvents,
] as const;

export function phoneHookPath(token: string): string {
  return `/gateway/v1/phone-hooks/${token}`;
}

/**
 * modules/webhooks/domain/WebHookEventDTO.kt (id, webhookId, event, deviceId, payload) with
 * payload/SmsEventPayload.kt (messageId, sender / recipient, simNumber, phoneNumber, and per event
 * partsCount+sentAt, deliveredAt, failedAt+reason, message+receivedAt, data (Base64)+receivedAt)
 * payload/MmsReceivedPayload.kt (transactionId, subject, size, contentClass, receivedAt) and
 * payload/MmsDownloadedPayload.kt (body, subject, attachments with Base64 `data`, receivedAt).
 * Gson leaves null fields out.
 */
const envelopeSchema = z.object({
  id: z.string().optional(),
  event: z.string(),
  deviceId: z.string().optional(),
  payload: z
    .object({
      messageId: z.string(),
      sender: z.string().optional(),
      recipient: z.string().optional(),
      phoneNumber: z.string().optional(),
      simNumber: z.number().int().optional(),
      reason: z.string().optional(),
      message: z.string().optional(),
      data: z.string().optional(),
      receivedAt: z.string().optional(),
    })
    .passthrough(),
});
type Envelope = z.output<typeof envelopeSchema>;

/** One post a phone made to its hook path (`phoneHookPath`), as the HTTP layer received it. */
export interface PhonePost {
  token: string;
  /** The exact text the phone signed. */
  body: string;
  signature?: string;
  timestamp?: string;
}

/**
 * What a phone posts (http/routes/phoneRoutes.ts serves the path), authenticated twice: by the
 * path, a random per-phone token only that phone was given (unknown: 404, like any unknown
 * path), and by the app's signature with the key we set on that phone (`webhookSignature.ts`;
 * missing, wrong or older than 5 minutes: 401, logged). Resolves once what the post brought is
 * durable: the phone posts again when it gets no answer.
 */
export interface PhoneHookReceiver {
  take(post: PhonePost): Promise<void>;
}

export function createPhoneHookReceiver(deps: {
  phones: () => AndroidPhone[];
  repository: MessageRepository;
  logger: Logger;
  clock: Clock;
}): PhoneHookReceiver {
  return {
    async take(post) {
      const phone = deps.phones().find((candidate) => candidate.hookToken === post.token);
      const signingKey = phone?.signingKey;
      if (!phone || !signingKey) throw new GatewayError(ErrorCode.NotFound, 'no phone posts here');
      const problem = signatureProblem({
        signingKey,
        body: post.body,
        signature: post.signature,
        timestamp: post.timestamp,
        nowMs: deps.clock.now(),
      });
      if (problem) {
        deps.logger.warn('refused a phone webhook post that is not signed by the phone', {
          deviceId: phone.deviceId,
          problem,
        });
        throw new GatewayError(ErrorCode.Unauthorized, 'the post does not carry this phone’s signature');
      }
      await takeEvent(phone, parseEnvelope(post.body), deps.repository, deps.logger);
    },
  };
}

function parseEnvelope(body: string): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new GatewayError(ErrorCode.ValidationFailed, 'body: not JSON', { field: 'body' });
  }
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['body', ...(issue?.path ?? [])].join('.');
    throw new GatewayError(ErrorCode.ValidationFailed, `${field}: ${issue?.message ?? 'invalid'}`, { field });
  }
  return parsed.data;
}

async function takeEvent(
  phone: AndroidPhone,
  envelope: Envelope,
  repository: MessageRepository,
  logger: Logger,
): Promise<void> {
  const { payload } = envelope;
  const receivedAt = payload.receivedAt ?? '';
  if (envelope.event === 'sms:received') {
    if (payload.sender === undefined || payload.message === undefined) return;
    await phone.takeIncoming(
      payload.messageId,
      payload.sender,
      { kind: 'text', text: payload.message },
      receivedAt,
      payload.simNumber,
    );
    return;
  }
  if (envelope.event === 'sms:data-received') {
    if (payload.sender === undefined || payload.data === undefined) return;
    const bytes = Uint8Array.from(Buffer.from(payload.data, 'base64'));
    await phone.takeIncoming(
      payload.messageId,
      payload.sender,
      { kind: 'data', bytes },
      receivedAt,
      payload.simNumber,
    );
    return;
  }
  if (isRelayed(envelope.event)) {
    await phone.relayMms(envelope.event, payload);
    return;
  }
  const send = sendOf(payload.messageId, phone.deviceId, repository);
  if (!send) {
    logger.info('phone webhook about a message we did not hand over', {
      event: envelope.event,
      deviceId: phone.deviceId,
    });
    return;
  }
  if (envelope.event === 'sms:sent') await phone.applyWebhookState(send, { state: 'Sent' });
  if (envelope.event === 'sms:delivered') await phone.applyWebhookState(send, { state: 'Delivered' });
  if (envelope.event === 'sms:failed') {
    await phone.applyWebhookState(send, {
      state: 'Failed',
      reason: phoneFailed(plainPhoneError(payload.reason)),
    });
  }
}

function isRelayed(event: string): event is RelayedPhoneEvent {
  return (relayedPhoneEvents as readonly string[]).includes(event);
}

/** Back from the phone's id (`phoneMessageId`): ours, or ours + "-<recipient index>". */
function sendOf(
  phoneId: string,
  deviceId: string,
  repository: MessageRepository,
): OutstandingSend | undefined {
  const split = /^(.+)-(\d+)$/.exec(phoneId);
  const candidates: [string, number][] = [[phoneId, 0]];
  if (split?.[1] && split[2]) candidates.push([split[1], Number(split[2])]);
  for (const [messageId, recipientIndex] of candidates) {
    const message = repository.get(messageId);
    const recipient = message?.recipients[recipientIndex];
    if (!message || message.deviceId !== deviceId || !recipient) continue;
    return {
      messageId,
      recipientIndex,
      phoneNumber: recipient.phoneNumber,
      withDeliveryReport: message.withDeliveryReport,
      state: recipient.state === 'Sent' ? 'Sent' : 'Processed',
    };
  }
  return undefined;
}
