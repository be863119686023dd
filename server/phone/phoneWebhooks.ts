import { z } from 'zod';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { ApiBuilder } from '../http/defineRoute.js';
import { errorResponses } from '../http/responses.js';
import type { Logger } from '../logging/logger.js';
import type { MessageRepository } from '../store/repositories.js';
import type { AndroidPhone, OutstandingSend } from './androidPhone.js';
import { plainPhoneError } from './phoneMessages.js';

/**
 * Events we register on a USB phone (modules/webhooks/domain/WebHookEvent.kt). sms:sent adds
 * nothing: the hand-over's answer already made the recipient Sent.
 */
export const phoneWebhookEvents = ['sms:delivered', 'sms:failed', 'sms:received'] as const;

export function phoneHookPath(token: string): string {
  return `/gateway/v1/phone-hooks/${token}`;
}

/**
 * modules/webhooks/domain/WebHookEventDTO.kt (id, webhookId, event, deviceId, payload) with
 * payload/SmsEventPayload.kt: messageId, recipient / sender, simNumber, reason, message,
 * receivedAt. Gson leaves null fields out.
 */
const envelopeSchema = z.object({
  id: z.string().optional(),
  event: z.string(),
  deviceId: z.string().optional(),
  payload: z.object({
    messageId: z.string(),
    sender: z.string().optional(),
    recipient: z.string().optional(),
    phoneNumber: z.string().optional(),
    simNumber: z.number().int().optional(),
    reason: z.string().optional(),
    message: z.string().optional(),
    receivedAt: z.string().optional(),
  }),
});
type Envelope = z.output<typeof envelopeSchema>;

/**
 * POST /gateway/v1/phone-hooks/{token}: what a phone posts. Public to our Basic auth (the phone
 * cannot log in), authenticated by the path: a random per-phone token that only that phone was
 * given. An unknown token is 404, like any unknown path.
 */
export function registerPhoneHookRoutes(
  api: ApiBuilder,
  deps: { phones: () => AndroidPhone[]; repository: MessageRepository; logger: Logger },
): void {
  api.route({
    method: 'post',
    path: '/gateway/v1/phone-hooks/:token',
    summary: "An Android phone's webhook (its SMS Gateway app posts message states and incoming SMS here)",
    tag: 'Devices',
    access: 'public',
    body: envelopeSchema,
    responses: { 204: { description: 'Taken' }, ...errorResponses(400, 404) },
    async handle({ body, params }) {
      const phone = deps.phones().find((candidate) => candidate.hookToken === params.token);
      if (!phone) throw new GatewayError(ErrorCode.NotFound, 'no phone posts here');
      await takeEvent(phone, body, deps.repository, deps.logger);
      return { status: 204 };
    },
  });
}

async function takeEvent(
  phone: AndroidPhone,
  envelope: Envelope,
  repository: MessageRepository,
  logger: Logger,
) {
  const { payload } = envelope;
  if (envelope.event === 'sms:received') {
    if (payload.sender === undefined || payload.message === undefined) return;
    await phone.takeIncoming(
      payload.messageId,
      payload.sender,
      payload.message,
      payload.receivedAt ?? '',
      payload.simNumber,
    );
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
  if (envelope.event === 'sms:delivered') await phone.applyWebhookState(send, { state: 'Delivered' });
  if (envelope.event === 'sms:failed') {
    await phone.applyWebhookState(send, { state: 'Failed', error: plainPhoneError(payload.reason) });
  }
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
    };
  }
  return undefined;
}
