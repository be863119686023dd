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
