import type { MessageRecord, RecipientState } from '../api/types.js';
import { toEpochMs } from '../format/timeFormat.js';

/**
 * A recipient's failure (or a Sent one's lost report) in words staff understand, chosen by its
 * code; the gateway's text stays in brackets where it helps support ("+CMS ERROR: 500" is what a
 * modem manual or the operator looks up). A recipient without a code shows its text as it is.
 */
export function plainFailure(recipient: RecipientState, message: MessageRecord): string | undefined {
  const { error, failure } = recipient;
  if (!failure) return error;
  const detail = error ? ` (${error})` : '';
  switch (failure.code) {
    case 'ttl-expired': {
      const ttlSeconds = message.validUntil
        ? Math.round((toEpochMs(message.validUntil) - toEpochMs(message.createdAt)) / 1000)
        : undefined;
      // Not "before a modem was free": sending may have been paused, or no modem may carry it.
      return `Expired before it was sent${ttlSeconds !== undefined ? ` (TTL ${ttlSeconds} s)` : ''}: no modem took it in time, or sending was paused.`;
    }
    case 'interrupted':
      return 'The gateway stopped while sending it: it may or may not have reached the phone.';
    case 'report-lost':
      return "Sent, but the modem's message storage was full when its delivery report was due: whether it arrived may never be known.";
    case 'opted-out':
      return 'Not sent: the number is on the opt-out list.';
    case 'device-gone':
      return 'Not sent: the device stopped answering in the middle of this message. Send it again to this number.';
    case 'modem-refused':
      return `The modem or the mobile network refused it${detail}.`;
    case 'send-failed':
      return `The modem could not send it${detail}.`;
    case 'decryption-failed':
      return `It could not be decrypted: check the end-to-end passphrase in Settings${detail}.`;
    case 'delivery-failed':
      return `The network could not deliver it${detail}.`;
    case 'phone-failed':
      return `The phone could not send it${detail}.`;
  }
}

/** Pending with a send time still ahead: the scheduler holds it until then. */
export function scheduledFor(message: MessageRecord, nowMs: number): string | undefined {
  if (message.state !== 'Pending' || !message.scheduleAt) return undefined;
  return toEpochMs(message.scheduleAt) > nowMs ? message.scheduleAt : undefined;
}
