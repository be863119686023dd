import type { RecipientFailure } from './message.js';

/**
 * The failures the gateway records on recipients: upstream's `error` text with our code
 * (`RecipientFailureCodes`) beside it. The UI says what happened from the code; the text is
 * what upstream clients and webhooks read. A modem's own text ("+CMS ERROR: 500") passes
 * through as the `error` of a refusal, its number as the `modemCode`.
 */
export interface FailureReason {
  readonly error: string;
  readonly failure: RecipientFailure;
}

/** A message whose `validUntil` passed before a modem took it. */
export const TTL_EXPIRED_ERROR = 'TTL expired';

/** The gateway stopped mid-send: the PDU may or may not have left the modem. */
export const INTERRUPTED_ERROR = 'interrupted; may have been sent';

/**
 * On a Sent recipient still waiting for its delivery report when the modem's report memory was
 * found full: the report may have been refused. Cleared if a report arrives after all.
 */
export const REPORT_LOST_ERROR = 'delivery report may be lost: SIM storage full';

/** A recipient on the opt-out list (README "Opt-out"). */
export const OPTED_OUT_ERROR = 'opted out';

/** The recipients not sent when a phone went away in the middle of their message. */
export const NOT_SENT_DEVICE_GONE_ERROR =
  'not sent: the device stopped answering in the middle of this message; send it again to this number';

export const ttlExpired: FailureReason = { error: TTL_EXPIRED_ERROR, failure: { code: 'ttl-expired' } };
export const interrupted: FailureReason = { error: INTERRUPTED_ERROR, failure: { code: 'interrupted' } };
export const reportLost: FailureReason = { error: REPORT_LOST_ERROR, failure: { code: 'report-lost' } };
export const optedOut: FailureReason = { error: OPTED_OUT_ERROR, failure: { code: 'opted-out' } };
export const deviceGone: FailureReason = {
  error: NOT_SENT_DEVICE_GONE_ERROR,
  failure: { code: 'device-gone' },
};

/** The modem or network refused the send: the modem's text, and its +CMS ERROR code when it gave one. */
export function modemRefused(text: string, cmsCode: number | undefined): FailureReason {
  return { error: text, failure: withModemCode('modem-refused', cmsCode) };
}

export function sendFailed(text: string, cmeCode?: number): FailureReason {
  return { error: `send failed: ${text}`, failure: withModemCode('send-failed', cmeCode) };
}

export function decryptionFailed(text: string): FailureReason {
  return { error: `decryption failed: ${text}`, failure: { code: 'decryption-failed' } };
}

/** A status report with a permanent or given-up TP-Status (TS 23.040 §9.2.3.15, 0x40 and up). */
export function deliveryFailed(tpStatus: number): FailureReason {
  return {
    error: `delivery failed: TP-Status 0x${tpStatus.toString(16).padStart(2, '0')}`,
    failure: { code: 'delivery-failed', modemCode: tpStatus },
  };
}

/** An Android phone's app reported the recipient Failed, in its own words. */
export function phoneFailed(text: string): FailureReason {
  return { error: text, failure: { code: 'phone-failed' } };
}

function withModemCode(code: RecipientFailure['code'], modemCode: number | undefined): RecipientFailure {
  return modemCode === undefined ? { code } : { code, modemCode };
}
