import { isFinalRecipientState, type MessageRecord, type MessageState } from '../domain/message.js';
import type { MobilePatchMessageItem, ProcessingState } from './mobileApi.js';

/** Why a message the server gave us ended without leaving the gateway. */
export const cancelledLocallyError = 'cancelled on the gateway';

/**
 * The upstream `MessageState` body (client-go `MobilePatchMessageItem`) for the message as it
 * is now: what the Android app's `GatewayService.sendState` sends after every change. The
 * server has no Cancelled, so a message cancelled through our own API is reported Failed with
 * the reason, as the app does for a message it could not send.
 */
export function stateReportOf(message: MessageRecord): MobilePatchMessageItem {
  const states: Partial<Record<ProcessingState, string>> = {};
  for (const [state, at] of Object.entries(message.states) as [MessageState, number][]) {
    states[serverState(state)] ??= new Date(at).toISOString();
  }
  return {
    id: message.id,
    state: serverState(message.state),
    recipients: message.recipients.map((recipient) => {
      const error = recipient.error ?? (recipient.state === 'Cancelled' ? cancelledLocallyError : undefined);
      return {
        phoneNumber: recipient.phoneNumber,
        state: serverState(recipient.state),
        ...(error === undefined ? {} : { error }),
      };
    }),
    states,
  };
}

/** A message the gateway refused to queue (e.g. a SIM slot no modem has): Failed at once. */
export function refusalReportOf(id: string, phoneNumbers: readonly string[], error: string, at: number) {
  const reachedAt = new Date(at).toISOString();
  const report: MobilePatchMessageItem = {
    id,
    state: 'Failed',
    recipients: phoneNumbers.map((phoneNumber) => ({ phoneNumber, state: 'Failed', error })),
    states: { Failed: reachedAt },
  };
  return report;
}

function serverState(state: MessageState): ProcessingState {
  return state === 'Cancelled' ? 'Failed' : state;
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
