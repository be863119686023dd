import type { MessageRecord } from './message.js';

/**
 * An outgoing message's text as the API, the window and exports show it. A verification code's
 * SMS keeps its code only for the modem: anyone reading the queue (a viewer, an export, the live
 * stream) sees its digits masked, so the code proves only that the phone received it.
 */
export function shownText(message: Pick<MessageRecord, 'purpose'>, text: string): string {
  return message.purpose === 'verification' ? text.replace(/\d/g, '•') : text;
}
