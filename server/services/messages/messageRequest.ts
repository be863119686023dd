import type { MessageContent, MmsAttachment } from '../../contract/domain/message.js';
import { decodedLength } from '../../contract/schemas/dataPayload.js';
import type { MessageRequest } from '../../contract/schemas/messageSchemas.js';
import { e164Pattern } from '../../contract/schemas/primitives.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * What a send request says, read and checked before it becomes a message's record
 * (MessageService.prepare): its content, its MMS attachments, its expiry and its numbers.
 */

export function content(message: MessageRequest): MessageContent {
  const mms = message.mmsMessage;
  if (mms) {
    return {
      kind: 'mms',
      ...(mms.subject ? { subject: mms.subject } : {}),
      ...(mms.text ? { text: mms.text } : {}),
      attachments: mmsAttachmentsOf(message).map(({ data: _data, ...info }) => info),
    };
  }
  if (message.dataMessage)
    return { kind: 'data', data: message.dataMessage.data, port: message.dataMessage.port };
  const text = message.textMessage?.text ?? message.message;
  // The schema guarantees exactly one content field; this guards the type, not the client.
  if (text == null) throw new GatewayError(ErrorCode.ValidationFailed, 'textMessage: is required');
  return { kind: 'text', text };
}

/** The request's MMS attachments with their bytes; none for any other message. */
export function mmsAttachmentsOf(message: MessageRequest): MmsAttachment[] {
  return (message.mmsMessage?.attachments ?? []).map((attachment) => ({
    contentType: attachment.contentType,
    ...(attachment.name ? { name: attachment.name } : {}),
    size: decodedLength(attachment.data),
    data: attachment.data,
  }));
}

/** Absolute expiry from `ttl` (seconds from now) or `validUntil`; an instant already past is refused. */
export function expiry(message: MessageRequest, now: number): number | undefined {
  if (message.ttl != null) return now + message.ttl * 1000;
  if (message.validUntil == null) return undefined;
  if (message.validUntil <= now) {
    throw new GatewayError(ErrorCode.ValidationFailed, 'validUntil: is already in the past', {
      field: 'validUntil',
    });
  }
  return message.validUntil;
}

export function checkPhoneNumbers(phoneNumbers: readonly string[]): void {
  for (const [index, phoneNumber] of phoneNumbers.entries()) {
    if (!e164Pattern.test(phoneNumber)) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `phoneNumbers[${index}]: ${JSON.stringify(phoneNumber)} is not an E.164 number (+ and up to 15 digits); ` +
          'send skipPhoneValidation=true to pass it unchanged',
        { field: `phoneNumbers[${index}]` },
      );
    }
  }
}

/** Recipients are tracked by number, so one number twice would share a single state. */
export function checkDistinct(phoneNumbers: readonly string[]): void {
  const seen = new Map<string, number>();
  for (const [index, phoneNumber] of phoneNumbers.entries()) {
    const first = seen.get(phoneNumber);
    if (first !== undefined) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `phoneNumbers[${index}]: repeats phoneNumbers[${first}]`,
        {
          field: `phoneNumbers[${index}]`,
        },
      );
    }
    seen.set(phoneNumber, index);
  }
}
