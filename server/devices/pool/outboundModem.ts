import type { ModemStatus } from '../../contract/domain/device.js';
import type { MessageContent, MmsAttachment } from '../../contract/domain/message.js';

/**
 * What the scheduler needs from a modem driver to send. The driver owns the AT session,
 * PDU encoding and part splitting; the scheduler owns order, limits, choice of modem and the
 * message states.
 */
export interface SendRequest {
  /** Used for logs and to match status reports back to the message. */
  messageId: string;
  recipient: string;
  /** Position of `recipient` in the message (0 for the first); a phone derives its message id from it. */
  recipientIndex?: number;
  /** Already decrypted when the message was end-to-end encrypted (and the passphrase is set). */
  content: MessageContent;
  /**
   * An end-to-end encrypted message as the client sent it (number and content still
   * ciphertext), for a member that `passesEncrypted`.
   */
  encrypted?: { recipient: string; content: MessageContent };
  /** An MMS's attachments with their bytes, in order, read from the store for this hand-over. */
  attachments?: MmsAttachment[];
  /** SIM slot 1..n; modems with one SIM only have 1. */
  simNumber: number;
  requestStatusReport: boolean;
  /** Absolute expiry in ms since epoch, encoded as TP-VP; absent: network default. */
  validUntil?: number;
}

export interface SendResult {
  /** TP-MR of each part in order, from `+CMGS: <mr>`. */
  references: number[];
  /**
   * The member took the message into a queue of its own (an Android phone's app) and has not
   * sent it yet: the recipient stays Processed until the member reports its outcome.
   */
  held?: boolean;
}

export interface OutboundModem {
  readonly deviceId: string;
  readonly status: ModemStatus;
  /** Number of SIM slots (1 for ordinary modems). */
  readonly simSlots: number;
  /** Last time the modem answered anything (ms since epoch). */
  readonly lastSeen: number;
  /**
   * Sends every part; resolves when each has `+CMGS: <mr>`. Rejects with a GatewayError:
   * CmsError (modemCode = the +CMS code) when the network/modem refused it — nothing was sent;
   * SendInterrupted when the outcome is unknown (timeout after the PDU left, unplug mid-send).
   */
  send(request: SendRequest): Promise<SendResult>;
  /**
   * When the member takes another message, if its own limits say later than `now`
   * (an Android phone's pacing and in-flight bound); Infinity until something it holds settles
   * (it then reports a change). Absent: whenever it is ready and not sending.
   */
  availableAt?(now: number): number;
  /** Takes end-to-end encrypted messages as they came (`SendRequest.encrypted`): it decrypts them itself. */
  readonly passesEncrypted?: boolean;
  /** Sends MMS: an Android phone whose app was found to take `mmsMessage`. Absent: SMS only. */
  readonly sendsMms?: boolean;
}
