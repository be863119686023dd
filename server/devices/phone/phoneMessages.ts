import { type FailureReason, phoneFailed } from '../../contract/domain/failureTexts.js';
import type { MessageContent, MmsAttachment } from '../../contract/domain/message.js';
import type { SendRequest } from '../pool/outboundModem.js';
import type { PhoneMessage, PhoneSendRequest } from './phoneClient.js';

/**
 * The id a recipient's send carries on the phone. The scheduler hands a message over one recipient
 * at a time, so a message to several recipients becomes one phone message per recipient: our id,
 * then "-<index>" for every recipient after the first. Stable, so a hand-over repeated after a
 * crash or a timeout is answered 409 by the phone (MessagesRoutes.kt) and never sent twice.
 */
export function phoneMessageId(messageId: string, recipientIndex: number): string {
  return recipientIndex === 0 ? messageId : `${messageId}-${recipientIndex}`;
}

/** One recipient's hand-over as the app's `POST /messages` body. */
export function phoneSendRequestOf(id: string, request: SendRequest): PhoneSendRequest {
  // An encrypted message goes as it came (number and content): the app decrypts it itself.
  const sealed = request.encrypted;
  const body = sealed?.content ?? request.content;
  const content = phoneContentOf(body, request.attachments ?? []);
  return {
    id,
    phoneNumbers: [sealed?.recipient ?? request.recipient],
    ...content,
    simNumber: request.simNumber,
    withDeliveryReport: request.requestStatusReport,
    isEncrypted: sealed !== undefined,
    ...(request.validUntil === undefined ? {} : { validUntil: new Date(request.validUntil).toISOString() }),
  };
}

function phoneContentOf(
  body: MessageContent,
  attachments: readonly MmsAttachment[],
): Pick<PhoneSendRequest, 'textMessage' | 'dataMessage' | 'mmsMessage'> {
  switch (body.kind) {
    case 'text':
      return { textMessage: { text: body.text } };
    case 'data':
      return { dataMessage: { data: body.data, port: body.port } };
    case 'mms':
      return {
        mmsMessage: {
          subject: body.subject,
          text: body.text,
          attachments: attachments.map(({ contentType, name, data }) => ({ contentType, name, data })),
        },
      };
  }
}

/** What a recipient's state on the phone means for ours; undefined while the phone still holds it. */
export type PhoneOutcome =
  | { state: 'Sent' }
  | { state: 'Delivered' }
  | { state: 'Cancelled' }
  | { state: 'Failed'; reason: FailureReason };

/**
 * domain/ProcessingState.kt per recipient. Pending and Processed there are Processed here (the
 * phone holds it); Cancelled there (our cancel, or someone in the app) is Cancelled here.
 */
export function outcomeOf(message: PhoneMessage, phoneNumber: string): PhoneOutcome | undefined {
  const recipient =
    message.recipients.find((candidate) => digits(candidate.phoneNumber) === digits(phoneNumber)) ??
    (message.recipients.length === 1 ? message.recipients[0] : undefined);
  const state = recipient?.state ?? message.state;
  if (state === 'Delivered') return { state: 'Delivered' };
  if (state === 'Failed') return { state: 'Failed', reason: phoneFailed(plainPhoneError(recipient?.error)) };
  if (state === 'Cancelled') return { state: 'Cancelled' };
  if (state === 'Sent') return { state: 'Sent' };
  return undefined;
}

/**
 * The app records "Send result: RESULT_… (…)" (modules/messages/MessagesService.kt
 * resultToErrorMessage). The one a gateway meets most says little by itself: Android lets an
 * app send about 30 SMS per 30 minutes unless told otherwise.
 */
export function plainPhoneError(error: string | undefined): string {
  if (!error) return 'the phone could not send it';
  if (/RESULT_ERROR_LIMIT_EXCEEDED|RESULT_UNEXPECTED_EVENT_STOP_SENDING/.test(error)) {
    return (
      'the phone refused: Android allows an app only about 30 SMS per 30 minutes. On the phone, answer ' +
      '"Always allow" when Android asks about the SMS Gateway app sending many messages (or raise the ' +
      'limit with `adb shell settings put global sms_outgoing_check_max_count 1000`), or keep the ' +
      'gateway under it: the sending limit setting (limit_period Per30Minutes, limit_value 30) counts ' +
      'for each modem and phone on its own. ' +
      `(${error})`
    );
  }
  if (/RESULT_ERROR_NO_SERVICE|RESULT_RADIO_NOT_AVAILABLE|RESULT_ERROR_RADIO_OFF/.test(error)) {
    return `the phone has no mobile network (airplane mode, no signal or no SIM) (${error})`;
  }
  return `the phone could not send it (${error})`;
}

function digits(phoneNumber: string): string {
  return phoneNumber.replace(/\D/g, '');
}
