import { gatewayCaller } from '../../contract/domain/caller.js';
import type { MessageRecord } from '../../contract/domain/message.js';
import type { MessageService } from '../messages/messageService.js';

/** One text to one number, as the desk sends it (replies, confirmations, auto-replies). */
export interface DeskText {
  to: string;
  text: string;
  /** The modem and SIM the other party wrote to, so the answer comes from the number they know. */
  deviceId?: string;
  simNumber?: number;
  /** Only an opt-out's own confirmation may reach a number on the list. */
  ignoreOptOut?: boolean;
  /**
   * Called with the message in the turn that stores it, before its commit: what the caller
   * writes there (a fact that reports the message) is durable with it or not at all.
   */
  inSameCommit?: (message: MessageRecord) => void;
}

export type DeskSend = (text: DeskText) => Promise<MessageRecord>;

/**
 * Queues through the same service as POST /messages, so every check, the queue limit and the
 * scheduler apply, as the gateway itself: the desk's answers belong to no app. Numbers go as the
 * party wrote them (a national number or a short code is still a number the modem can dial),
 * hence no E.164 check.
 */
export function deskSenderOf(messages: MessageService): DeskSend {
  return async (text) => {
    const request = {
      message: {
        textMessage: { text: text.text },
        phoneNumbers: [text.to],
        deviceId: text.deviceId,
        simNumber: text.simNumber,
        ignoreOptOut: text.ignoreOptOut,
      },
      skipPhoneValidation: true,
      deviceActiveWithinHours: 0,
    };
    if (!text.inSameCommit) return messages.enqueue(request, gatewayCaller);
    const records = messages.prepareAll([request], gatewayCaller);
    for (const record of records) text.inSameCommit(record);
    await messages.enqueuePrepared(records);
    return records[0] as MessageRecord;
  };
}
