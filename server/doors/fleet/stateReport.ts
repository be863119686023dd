import {
  isFinalRecipientState,
  type MessageRecord,
  type MessageState,
} from '../../contract/domain/message.js';
import type { MobilePatchMessageItem, ProcessingState } from './mobileApi.js';

/**
 * The upstream `MessageState` body (client-go `MobilePatchMessageItem`) for the message as it
 * is now: what the Android app's `GatewayService.sendState` sends after every change. Our
 * states are the server's, Cancelled included (server 1.45 takes it): a message cancelled
 * through our own API is reported Cancelled, with no error, as the app reports its own cancels.
 */
export function stateReportOf(message: MessageRecord): MobilePatchMessageItem {
  const states: Partial<Record<ProcessingState, string>> = {};
  for (const [state, at] of Object.entries(message.states) as [MessageState, number][]) {
    states[state] ??= new Date(at).toISOString();
  }
  return {
    id: message.id,
    state: message.state,
    recipients: message.recipients.map((recipient) => ({
      phoneNumber: recipient.phoneNumber,
      state: recipient.state,
      ...(recipient.error === undefined ? {} : { error: recipient.error }),
    })),
    states,
  };
}

/** A message the gateway refused to queue (e.g. a SIM slot no modem has): Failed at once. */
export function refusalReportOf(
  id: string,
  phoneNumbers: readonly string[],
  error: string,
  at: number,
): MobilePatchMessageItem {
  return endedReport(id, phoneNumbers, 'Failed', at, error);
}

/**
 * A message the server cancelled before the gateway took it: Cancelled at once, never queued —
 * the body capcom6/android-sms-gateway `GatewayService.processMessage` sends for a Cancelling
 * message it does not hold (app commit 0cdc5d86c6f3cc24101f27feefd926e801e8b2c7).
 */
export function cancelledReportOf(
  id: string,
  phoneNumbers: readonly string[],
  at: number,
): MobilePatchMessageItem {
  return endedReport(id, phoneNumbers, 'Cancelled', at);
}

function endedReport(
  id: string,
  phoneNumbers: readonly string[],
  state: 'Failed' | 'Cancelled',
  at: number,
  error?: string,
): MobilePatchMessageItem {
  return {
    id,
    state,
    recipients: phoneNumbers.map((phoneNumber) => ({
      phoneNumber,
      state,
      ...(error === undefined ? {} : { error }),
    })),
    states: { [state]: new Date(at).toISOString() },
  };
}

/**
 * Nothing about the message changes any more, so its tracking can end: every recipient failed,
 * was cancelled or delivered — or was sent, when no delivery report was asked for.
 */
export function isFinalState(message: MessageRecord): boolean {
  return message.recipients.every(
    (recipient) =>
      isFinalRecipientState(recipient.state) || (recipient.state === 'Sent' && !message.withDeliveryReport),
  );
}
