import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import type { Document } from '../store/documentStore.js';
import type { MessageRepository } from '../store/repositories.js';
import type { OutstandingSend, PhoneLedger } from './androidPhone.js';
import type { PhoneOutcome } from './phoneMessages.js';

/** How long after a hand-over the phone is still asked about it (as for status reports). */
const followUpMs = 7 * 24 * 60 * 60_000;

export interface PhoneDocumentData {
  /** Per phone device id: createdAt (ms) of the newest incoming message taken. */
  inboxCursors: Record<string, number>;
  /** Per phone address (adb://SERIAL): the secret path token of its webhooks. */
  hookTokens?: Record<string, string>;
  /** Phones added on the Modems screen; the file is 0600 like every secret of the gateway. */
  added?: { address: string; username: string; password: string }[];
}

/**
 * The phones' view of the message store: what each phone accepted and is not final here yet
 * (recipients Sent through it), and where its inbox was read up to (a 0600 document).
 */
export function createPhoneLedger(deps: {
  repository: MessageRepository;
  lifecycle: MessageLifecycle;
  document: Document<PhoneDocumentData>;
  now: () => number;
}): PhoneLedger {
  // Sent without a delivery report is final on the phone: asked once, then left alone.
  const finished = new Set<string>();
  const key = (messageId: string, phoneNumber: string) => `${messageId}/${phoneNumber}`;
  return {
    outstanding(deviceId: string): OutstandingSend[] {
      const sends: OutstandingSend[] = [];
      for (const message of deps.repository.inState('Sent', deps.now() - followUpMs)) {
        if (message.deviceId !== deviceId) continue;
        for (const [recipientIndex, recipient] of message.recipients.entries()) {
          if (recipient.state !== 'Sent' || finished.has(key(message.id, recipient.phoneNumber))) continue;
          sends.push({
            messageId: message.id,
            recipientIndex,
            phoneNumber: recipient.phoneNumber,
            withDeliveryReport: message.withDeliveryReport,
          });
        }
      }
      return sends;
    },
    async settle(messageId: string, phoneNumber: string, outcome: PhoneOutcome): Promise<void> {
      if (outcome.state === 'Sent') finished.add(key(messageId, phoneNumber));
      else if (outcome.state === 'Delivered')
        await deps.lifecycle.markRecipientDelivered(messageId, phoneNumber);
      else await deps.lifecycle.markRecipientFailed(messageId, phoneNumber, outcome.error);
    },
    inboxCursor: (deviceId) => deps.document.data.inboxCursors[deviceId],
    setInboxCursor: (deviceId, at) =>
      deps.document.update((data) => {
        data.inboxCursors[deviceId] = at;
      }),
  };
}
