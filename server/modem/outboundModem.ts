import type { ModemStatus } from '../domain/device.js';
import type { MessageContent } from '../domain/message.js';

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
  /** Already decrypted when the message was end-to-end encrypted. */
  content: MessageContent;
  /** SIM slot 1..n; modems with one SIM only have 1. */
  simNumber: number;
  requestStatusReport: boolean;
  /** Absolute expiry in ms since epoch, encoded as TP-VP; absent: network default. */
  validUntil?: number;
}

export interface SendResult {
  /** TP-MR of each part in order, from `+CMGS: <mr>`. */
  references: number[];
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
}
