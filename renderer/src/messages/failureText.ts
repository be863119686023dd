import {
  INTERRUPTED_ERROR,
  REPORT_LOST_ERROR,
  TTL_EXPIRED_ERROR,
} from '../../../server/messages/failureTexts.js';
import type { MessageRecord } from '../api/types.js';
import { toEpochMs } from '../format/timeFormat.js';
import { acceptedAt } from './messageRows.js';

/**
 * A recipient's `error` (a failure, or a Sent one's lost report) in words staff understand, keeping
 * the technical text in brackets where it helps support ("+CMS ERROR: 500" is what a modem manual or the operator looks up).
 */
export function plainFailure(error: string, message: MessageRecord): string {
  if (error === TTL_EXPIRED_ERROR) {
    const accepted = acceptedAt(message);
    const ttlSeconds =
      message.validUntil && accepted
        ? Math.round((toEpochMs(message.validUntil) - toEpochMs(accepted)) / 1000)
        : undefined;
    return `Expired before a modem was free${ttlSeconds !== undefined ? ` (TTL ${ttlSeconds} s)` : ''}.`;
  }
  if (error === INTERRUPTED_ERROR) {
    return 'The gateway stopped while sending it: it may or may not have reached the phone.';
  }
  if (error === REPORT_LOST_ERROR) {
    return "Sent, but the modem's message storage was full when its delivery report was due: whether it arrived may never be known.";
  }
  if (/^\+CMS ERROR/.test(error)) return `The modem or the mobile network refused it (${error}).`;
  if (error.startsWith('decryption failed')) {
    return `It could not be decrypted: check the end-to-end passphrase in Settings (${error}).`;
  }
  if (error.startsWith('send failed: ')) return `The modem could not send it (${error.slice(13)}).`;
  return error;
}

/** Pending with a send time still ahead: the scheduler holds it until then. */
export function scheduledFor(message: MessageRecord, nowMs: number): string | undefined {
  if (message.state !== 'Pending' || !message.scheduleAt) return undefined;
  return toEpochMs(message.scheduleAt) > nowMs ? message.scheduleAt : undefined;
}
