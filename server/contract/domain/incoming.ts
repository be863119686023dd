import { type SimTarget, targetsAllow } from './simTarget.js';

/**
 * Incoming messages as every layer sees them: the decoded SMS the inbox reads, the parts it
 * reassembles (and the store keeps across restarts), the stored record and the event announcing it.
 * Pure types: the store, the modem drivers, the inbox, events and the UI share them.
 */

/**
 * The fields of a decoded SMS-DELIVER (server/pdu `DecodedDeliver`) the inbox uses. Declared
 * here structurally so the inbox depends on what it reads, not on the codec module.
 */
export interface ReceivedSms {
  sender: { number: string };
  /** TP-SCTS: when the SMSC received it (TS 23.040 §9.2.3.11). */
  timestamp: { epochMs: number };
  /** Decoded text for GSM 7-bit / UCS-2 user data; absent for 8-bit data. */
  text?: string;
  /** User data without the header. */
  bytes: Uint8Array;
  /** TS 23.040 §9.2.3.24.1 / .8: concatenated short message (8- or 16-bit reference). */
  concatenation?: { reference: number; partsCount: number; partNumber: number };
  /** TS 23.040 §9.2.3.24.3 / .4: application port addressing. */
  ports?: { destination: number; source: number };
}

/** One received part as the reassembler keeps it (JSON-safe: it is persisted). */
export interface ReceivedPart {
  partNumber: number;
  /** Text of this part; absent when the part carries 8-bit data. */
  text?: string;
  /** Base64 of the part's user data bytes. */
  data: string;
  /** SCTS of this part, ms since epoch. */
  sentAt: number;
  receivedAt: number;
}

/** A whole incoming message, single-part or reassembled, ready to become an IncomingRecord. */
export interface AssembledSms {
  deviceId: string;
  simNumber: number;
  sender: string;
  /** Destination port: set for data messages. */
  port?: number;
  /** Parts in part-number order (only those that arrived when `incomplete`). */
  parts: ReceivedPart[];
  incomplete: boolean;
}

/** An SMS as `message:received` and the inbox replays announce it (server/events). */
export interface IncomingMessageEvent {
  id: string;
  type: 'SMS' | 'DATA_SMS';
  deviceId: string;
  simNumber: number;
  sender: string;
  recipient?: string;
  /** Text for SMS; Base64 for DATA_SMS. */
  content: string;
  port?: number;
  receivedAt: number;
  /** The app the message replies to, as recorded when it arrived (IncomingRecord.repliesTo). */
  repliesTo?: string;
}

export interface IncomingBatchEvent {
  deviceId: string;
  type: IncomingMessageEvent['type'];
  messages: IncomingMessageEvent[];
}

/**
 * The inbox's message types (docs/decisions.md#inbox); a modem driven over AT commands stores only SMS
 * and DATA_SMS.
 */
export const IncomingTypes = ['SMS', 'DATA_SMS', 'MMS', 'MMS_DOWNLOADED'] as const;
export type IncomingType = (typeof IncomingTypes)[number];

/** One stored incoming message (the inbox table). */
export interface IncomingRecord {
  /** Derived from the content (docs/decisions.md#inbox): the same message read twice has the same id. */
  id: string;
  type: IncomingType;
  deviceId: string;
  simNumber: number;
  sender: string;
  recipient?: string;
  /** Full text (SMS) or Base64 bytes (DATA_SMS). */
  content: string;
  port?: number;
  /** When the SMSC stamped it (SCTS), ms since epoch. */
  sentAt?: number;
  receivedAt: number;
  /** Multipart message whose missing parts never arrived: stored with what we have. */
  incomplete?: boolean;
  /**
   * The app whose message the sender received last when this arrived (the send log): the app
   * whose incoming rule "replies" hears it, in its inbox too. Absent: no app wrote to the sender.
   */
  repliesTo?: string;
}

/**
 * Which received messages a caller sees and hears (an app's incoming rule): all of them, none,
 * those that arrived on the listed modems or SIM slots, or the replies to one app's messages.
 */
export type IncomingAudience =
  | { kind: 'everything' }
  | { kind: 'nothing' }
  | { kind: 'devices'; targets: readonly SimTarget[] }
  | { kind: 'replies'; appId: string };

/**
 * Whether a received message is the audience's: its modem and SIM slot, and the app it replies
 * to. A message of no one slot (a batch of a modem's messages) is heard only through a target
 * of the whole modem.
 */
export function audienceHears(
  audience: IncomingAudience,
  message: { deviceId: string; simNumber?: number | undefined; repliesTo?: string | undefined },
): boolean {
  switch (audience.kind) {
    case 'everything':
      return true;
    case 'nothing':
      return false;
    case 'devices':
      return message.simNumber === undefined
        ? audience.targets.some(
            (target) => target.deviceId === message.deviceId && target.simNumber === undefined,
          )
        : targetsAllow(audience.targets, message.deviceId, message.simNumber);
    case 'replies':
      return message.repliesTo === audience.appId;
  }
}

/** The parts of one multipart message still being reassembled (server/services/inbox/reassembly.ts). */
export interface PendingGroup {
  key: string;
  deviceId: string;
  simNumber: number;
  sender: string;
  reference: number;
  partsCount: number;
  port?: number;
  /** When the first part arrived: the timeout runs from here. */
  firstReceivedAt: number;
  parts: ReceivedPart[];
  /**
   * Set once delivered. The group is kept (without bodies) until the timeout so a part read
   * again from the modem (crash after the inbox write, before AT+CMGD) is recognised by its
   * part number and SCTS and not turned into a new, incomplete message.
   */
  completedAt?: number;
  delivered?: { partNumber: number; sentAt: number }[];
}

/** Where pending parts survive a restart. `save` resolves once the snapshot is durable. */
export interface PendingPartsStore {
  load(): Promise<PendingGroup[]>;
  save(groups: PendingGroup[]): Promise<void>;
}
