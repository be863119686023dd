/**
 * The outgoing message as the gateway stores it. The API's "message state" record
 * (docs/decisions.md#message-states) is a projection of this (see `messageView.ts`).
 */
export const MessageStates = ['Pending', 'Processed', 'Sent', 'Delivered', 'Failed', 'Cancelled'] as const;
export type MessageState = (typeof MessageStates)[number];

/**
 * States a client may filter by: ours plus Cancelling, which the app's list accepts
 * (capcom6/android-sms-gateway `domain/ProcessingState.kt`). A cancel here is immediate
 * (Pending → Cancelled), so no stored message is ever Cancelling and that filter finds none.
 */
export const MessageStateFilters = [...MessageStates, 'Cancelling'] as const;
export type MessageStateFilter = (typeof MessageStateFilters)[number];

export type MessageContent =
  | { kind: 'text'; text: string }
  /** `data` is the Base64 text the client sent; `port` the 16-bit destination port. */
  | { kind: 'data'; data: string; port: number }
  /** An MMS: only a phone whose app takes MMS sends it (schemas/mmsContent.ts). */
  | { kind: 'mms'; subject?: string; text?: string; attachments: MmsAttachmentInfo[] };

/** What one SMS carries: a modem, SMPP and e-mail deal in these only. */
export type SmsContent = Extract<MessageContent, { kind: 'text' | 'data' }>;

/**
 * An MMS attachment as the message's record keeps it. Its bytes are stored beside the message
 * (store/messageAttachments.ts), never in its row: every read of the queue would carry them.
 */
export interface MmsAttachmentInfo {
  contentType: string;
  name?: string;
  /** Bytes. */
  size: number;
}

/** An attachment with its bytes (Base64), as the client sent it and a phone is handed it. */
export interface MmsAttachment extends MmsAttachmentInfo {
  data: string;
}

/** One SMS part as handed to the modem (a long text is several). */
export interface PartRecord {
  /** TP-MR the modem answered in `+CMGS: <mr>`; absent until sent. */
  reference?: number;
  /** Last TP-Status from a status report, absent until one arrives. */
  reportStatus?: number;
}

/**
 * Why a recipient failed (or, on a Sent one, why its report may never come), as a code the UI
 * switches on; `error` keeps the upstream text beside it.
 */
export const RecipientFailureCodes = [
  /** `validUntil` passed before a modem took it. */
  'ttl-expired',
  /** The gateway stopped mid-send: it may or may not have left. */
  'interrupted',
  /** Sent, but the modem's report memory was full when its report was due. */
  'report-lost',
  /** The number is on the opt-out list. */
  'opted-out',
  /** The device went away in the middle of the message: this recipient was never sent. */
  'device-gone',
  /** The modem or network refused it (`modemCode`: the +CMS ERROR code, TS 27.005 §3.2.5). */
  'modem-refused',
  /** The device could not send it for another reason (`modemCode`: a +CME ERROR code, if any). */
  'send-failed',
  /** An end-to-end encrypted message that the passphrase does not open. */
  'decryption-failed',
  /** The network reported it undelivered (`modemCode`: TP-Status, TS 23.040 §9.2.3.15). */
  'delivery-failed',
  /** An Android phone's app reported it failed (its own words are the `error`). */
  'phone-failed',
] as const;
export type RecipientFailureCode = (typeof RecipientFailureCodes)[number];

export interface RecipientFailure {
  code: RecipientFailureCode;
  modemCode?: number;
}

export interface RecipientRecord {
  phoneNumber: string;
  state: MessageState;
  /** Upstream's text of a failure. */
  error?: string;
  /** Ours: the same failure as a code. */
  failure?: RecipientFailure;
  parts?: PartRecord[];
  /** When this recipient's state last changed (ms since epoch). */
  updatedAt?: number;
}

export interface MessageRecord {
  id: string;
  /** Device the client asked for, if any: the scheduler never moves such a message. */
  requestedDeviceId?: string;
  /** Device (modem) that took the message; set when it leaves Pending. */
  deviceId?: string;
  /** It went through the built-in simulated modem: nothing reached a phone. */
  simulated?: true;
  /** Fetched from the private server in fleet mode (its id is the server's); absent: our own API. */
  source?: 'server';
  /** A verification code's SMS (services/verify/): its text is shown with the code masked. */
  purpose?: 'verification';
  /** The app (auth/appDirectory.ts) whose credentials queued it; absent: the default app. */
  appId?: string;
  content: MessageContent;
  recipients: RecipientRecord[];
  /** SIM slot 1..3 the client asked for. */
  simNumber?: number;
  withDeliveryReport: boolean;
  priority: number;
  isEncrypted: boolean;
  /** Absolute expiry (ms since epoch), from `ttl` or `validUntil`. */
  validUntil?: number;
  /** Not sent before this instant (ms since epoch). */
  scheduleAt?: number;
  /** Our extension: sent even to numbers on the opt-out list (docs/desk.md "Opt-out"). */
  ignoreOptOut?: true;
  /** Only modems seen within this many hours (0/absent: any). */
  deviceActiveWithinHours?: number;
  createdAt: number;
  /** Enqueue order, strictly increasing: tie-breaker for FIFO/LIFO. */
  sequence: number;
  /**
   * A bulk send's message: the `sequence` of its campaign's first message. The campaign takes
   * its place in the queue as one message would, and goes out in its list order within it.
   */
  batchSequence?: number;
  /** Time each aggregate state was first reached (ms since epoch). */
  states: Partial<Record<MessageState, number>>;
  /** Aggregate of the recipients' states (see `aggregateState`). */
  state: MessageState;
}

/**
 * Aggregate rule of the upstream project, first match wins:
 * any Pending → Pending; any Cancelled → Cancelled; any Processed → Processed;
 * all Failed → Failed; all Delivered → Delivered; otherwise Sent.
 */
export function aggregateState(recipients: readonly Pick<RecipientRecord, 'state'>[]): MessageState {
  const has = (state: MessageState) => recipients.some((recipient) => recipient.state === state);
  const all = (state: MessageState) => recipients.every((recipient) => recipient.state === state);
  if (has('Pending')) return 'Pending';
  if (has('Cancelled')) return 'Cancelled';
  if (has('Processed')) return 'Processed';
  if (all('Failed')) return 'Failed';
  if (all('Delivered')) return 'Delivered';
  return 'Sent';
}

/** A Failed (or Cancelled/Delivered) recipient never changes again. */
export function isFinalRecipientState(state: MessageState): boolean {
  return state === 'Failed' || state === 'Cancelled' || state === 'Delivered';
}

/**
 * The scheme of an end-to-end encrypted field (`server/services/messages/e2eEncryption.ts`): such a field
 * reads `$aes-256-cbc/pbkdf2-sha1$…`. Here so request validation can tell one without the cipher.
 */
export const encryptedFieldScheme = 'aes-256-cbc/pbkdf2-sha1';

export function isEncryptedField(value: string): boolean {
  return value.startsWith(`$${encryptedFieldScheme}$`);
}
