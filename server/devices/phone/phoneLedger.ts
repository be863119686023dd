import type { HeldMessageOutcomes } from '../../contract/domain/heldMessages.js';
import type { Document } from '../../store/documentStore.js';
import type { MessageRepository } from '../../store/repositories.js';
import type { PhoneOutcome } from './phoneMessages.js';
import type { PhonePacingSettings } from './phonePacing.js';

/** A recipient handed to a phone whose outcome is not final here yet. */
export interface OutstandingSend {
  messageId: string;
  recipientIndex: number;
  phoneNumber: string;
  withDeliveryReport: boolean;
  /** Processed: the phone holds it; Sent: a delivery report is still to come. */
  state: 'Processed' | 'Sent';
}

/** What a phone needs from the message store; the composition root backs it (`createPhoneLedger`). */
export interface PhoneLedger {
  outstanding(deviceId: string): OutstandingSend[];
  /** Recipients this phone holds (Processed here). */
  held(deviceId: string): number;
  settle(messageId: string, phoneNumber: string, outcome: PhoneOutcome): Promise<void>;
  /** Back to the queue: the phone never got it. */
  requeue(messageId: string): Promise<void>;
  /** Times (ms) of hand-overs to this phone since `since`, for its pacing after a restart. */
  recentHandOvers(deviceId: string, since: number): number[];
  /** createdAt (ms) of the newest incoming message taken from this phone. */
  inboxCursor(deviceId: string): number | undefined;
  setInboxCursor(deviceId: string, at: number): Promise<void>;
}

/** How long after a hand-over the phone is still asked about its delivery (as for status reports). */
const followUpMs = 7 * 24 * 60 * 60_000;

export interface PhoneDocumentData {
  /** Per phone device id: createdAt (ms) of the newest incoming message taken. */
  inboxCursors: Record<string, number>;
  /** Per phone address (adb://SERIAL): the secret path token of its webhooks. */
  hookTokens?: Record<string, string>;
  /** Per phone address (adb://SERIAL): the key its app signs webhook posts with. */
  signingKeys?: Record<string, string>;
  /** Per phone address: pacing set on the Modems screen or the API (absent: the defaults). */
  pacing?: Record<string, PhonePacingSettings>;
  /** Phones added on the Modems screen; the file is 0600 like every secret of the gateway. */
  added?: { address: string; username: string; password: string }[];
}

/**
 * The phones' view of the message store: what each phone holds (recipients Processed through it)
 * or sent with a delivery report still to come (Sent), and where its inbox was read up to (a 0600
 * document).
 */
export function createPhoneLedger(deps: {
  repository: MessageRepository;
  lifecycle: HeldMessageOutcomes;
  document: Document<PhoneDocumentData>;
  now: () => number;
}): PhoneLedger {
  const sendsOf = (deviceId: string, state: 'Processed' | 'Sent', since?: number): OutstandingSend[] => {
    const sends: OutstandingSend[] = [];
    for (const message of deps.repository.inState(state, since)) {
      if (message.deviceId !== deviceId) continue;
      // Sent without a report is final: the phone has nothing more to say about it.
      if (state === 'Sent' && !message.withDeliveryReport) continue;
      for (const [recipientIndex, recipient] of message.recipients.entries()) {
        if (recipient.state !== state) continue;
        sends.push({
          messageId: message.id,
          recipientIndex,
          phoneNumber: recipient.phoneNumber,
          withDeliveryReport: message.withDeliveryReport,
          state,
        });
      }
    }
    return sends;
  };
  return {
    outstanding: (deviceId) => [
      ...sendsOf(deviceId, 'Processed'),
      ...sendsOf(deviceId, 'Sent', deps.now() - followUpMs),
    ],
    held: (deviceId) => sendsOf(deviceId, 'Processed').length,
    async settle(messageId: string, phoneNumber: string, outcome: PhoneOutcome): Promise<void> {
      const { lifecycle } = deps;
      if (outcome.state === 'Sent') await lifecycle.markRecipientSent(messageId, phoneNumber, []);
      else if (outcome.state === 'Delivered') await lifecycle.markRecipientDelivered(messageId, phoneNumber);
      else if (outcome.state === 'Cancelled') await lifecycle.markRecipientCancelled(messageId, phoneNumber);
      else await lifecycle.markRecipientFailed(messageId, phoneNumber, outcome.reason);
    },
    requeue: async (messageId) => {
      await deps.lifecycle.requeue(messageId);
    },
    recentHandOvers: (deviceId, since) =>
      deps.repository
        .handOversBetween(since, deps.now() + 1)
        .filter((handOver) => handOver.deviceId === deviceId)
        .map((handOver) => handOver.at),
    inboxCursor: (deviceId) => deps.document.data.inboxCursors[deviceId],
    setInboxCursor: (deviceId, at) =>
      deps.document.update((data) => {
        data.inboxCursors[deviceId] = at;
      }),
  };
}
