import type { WebhookEventName } from '../../../server/contract/domain/webhookEvents.js';

/**
 * What the gateway accepts as a webhook target (docs/decisions.md#webhooks): https anywhere, plain
 * http only to this computer (127.0.0.1, localhost, [::1]). Checked here too so the user hears it
 * while typing.
 */
export function webhookUrlProblem(input: string): string | undefined {
  const text = input.trim();
  if (text === '') return 'Enter the address that should receive the events.';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'This is not a complete address (it should start with https://).';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    return undefined;
  if (url.protocol === 'http:')
    return 'Plain http:// is only allowed to this computer (127.0.0.1); use https://.';
  return 'Only https:// addresses are allowed.';
}

/** Every event's words in the Event list: typed by the names, so a new event cannot show blank. */
export const webhookEventHelp: Record<WebhookEventName, string> = {
  'sms:received': 'An SMS arrived',
  'sms:data-received': 'A data SMS arrived',
  'sms:batch:received': 'SMS re-read from a modem, sent together (inbox refresh)',
  'sms:batch:data-received': 'Data SMS re-read from a modem, sent together',
  'mms:received': 'An MMS arrived on an Android phone',
  'mms:downloaded': 'An Android phone downloaded an MMS',
  'mms:batch:received': 'MMS sent together (accepted, never raised here)',
  'mms:batch:downloaded': 'Downloaded MMS sent together (accepted, never raised here)',
  'optout:added': 'A number joined the opt-out list',
  'optout:removed': 'A number left the opt-out list',
  'autoreply:sent': 'An auto-reply rule answered an SMS',
  'sms:sent': 'A message was sent',
  'sms:delivered': 'A delivery report confirmed a message',
  'sms:failed': 'A message failed',
  'sms:cancelled': 'A message was cancelled',
  'system:ping': 'Heartbeat at the ping interval',
  'app:started': 'The gateway started',
  'call:missed': 'A voice call rang on a modem',
  'modem:low-balance': 'A balance check found the balance below its threshold',
  'plan:cap-warning': 'A SIM used 80 % of a cap of its plan',
  'plan:cap-reached': 'A SIM reached a cap of its plan',
};
