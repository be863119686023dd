/** Public shapes of the PDU codec (TS 23.040 / TS 23.038). */

export type TextEncoding = 'gsm7' | 'ucs2' | '8bit';

export type SubmitContent =
  | { kind: 'text'; text: string }
  | { kind: 'data'; bytes: Uint8Array; destinationPort: number; sourcePort?: number };

export type Validity =
  /** Rounded UP to the next TP-VP step when encoding, capped at 63 weeks (TS 23.040 §9.2.3.12.1). */
  { kind: 'relative'; seconds: number } | { kind: 'absolute'; at: number; timezoneOffsetMinutes?: number };

export interface SubmitOptions {
  /** "+15551234567", "0612345678", or digits. */
  recipient: string;
  content: SubmitContent;
  /** TP-SRR. */
  requestStatusReport: boolean;
  validity?: Validity;
  /** 0..255, used only when the message needs several parts. */
  concatReference: number;
  /** TP-MR, default 0 (modems replace it). */
  messageReference?: number;
  /** Default: none (the "00" SMSC length octet: use the SIM's SMSC). */
  smsc?: string;
}

export interface EncodedSubmitPart {
  /** Uppercase hex including the SMSC field, ready to write after AT+CMGS. */
  hex: string;
  /** Octets excluding the SMSC field: the <length> of AT+CMGS=<length>. */
  tpduLength: number;
  /** 1-based. */
  partNumber: number;
  partsCount: number;
}

/** Units are septets for gsm7 and UTF-16 code units for ucs2. */
export interface TextPlan {
  encoding: 'gsm7' | 'ucs2';
  parts: number;
  unitsUsed: number;
  unitsPerPart: number;
  remainingInPart: number;
}

export interface Address {
  number: string;
  type: 'international' | 'national' | 'alphanumeric' | 'unknown';
  typeOfAddress: number;
}

export interface Timestamp {
  epochMs: number;
  timezoneOffsetMinutes: number;
}

export interface Concatenation {
  reference: number;
  partsCount: number;
  partNumber: number;
  referenceBits: 8 | 16;
}

export interface Ports {
  destination: number;
  source: number;
}

export interface HeaderElement {
  iei: number;
  data: Uint8Array;
}

export interface UserData {
  encoding: TextEncoding;
  text?: string;
  /**
   * The user data after the header: octets for 8bit and ucs2, one septet value per element for
   * gsm7 (unpacked, so escapes and national shifts stay visible).
   */
  bytes: Uint8Array;
  concatenation?: Concatenation;
  ports?: Ports;
  /** Every information element of the UDH in order, known or not, with its raw data. */
  headerElements: HeaderElement[];
}

export interface DecodedDeliver extends UserData {
  type: 'deliver';
  smsc?: Address;
  sender: Address;
  timestamp: Timestamp;
  protocolId: number;
  dataCodingScheme: number;
  messageClass?: number;
  statusReportIndication: boolean;
  moreMessagesToSend: boolean;
  replyPath: boolean;
}

export interface DecodedSubmit extends UserData {
  type: 'submit';
  smsc?: Address;
  recipient: Address;
  messageReference: number;
  statusReportRequested: boolean;
  validity?: Validity;
  protocolId: number;
  dataCodingScheme: number;
  rejectDuplicates: boolean;
}

export interface DecodedStatusReport {
  type: 'status-report';
  smsc?: Address;
  messageReference: number;
  recipient: Address;
  serviceCentreTimestamp: Timestamp;
  dischargeTime: Timestamp;
  /** TP-ST (TS 23.040 §9.2.3.15): 0x00..0x1F completed, 0x20..0x3F still trying, 0x40.. failed. */
  status: number;
  /** Optional TP-PID/TP-DCS/TP-UD announced by TP-PI (TS 23.040 §9.2.3.27); rarely present. */
  userData?: UserData;
}

export type DecodedPdu = DecodedDeliver | DecodedSubmit | DecodedStatusReport;

export interface DecodeOptions {
  /** Default true: the hex starts with the SMSC length octet, as modems give it. */
  hasSmsc?: boolean;
}

export interface DeliverOptions {
  sender: string;
  content: SubmitContent;
  timestamp: Timestamp;
  concatReference?: number;
  smsc?: string;
}

export interface StatusReportOptions {
  messageReference: number;
  recipient: string;
  serviceCentreTimestamp: Timestamp;
  dischargeTime: Timestamp;
  status: number;
  smsc?: string;
}

export interface EncodedPdu {
  hex: string;
  tpduLength: number;
}
