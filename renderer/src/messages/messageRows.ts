import { foldText } from '../../../server/contract/domain/textFold.js';
import type { MessageFilter } from '../api/gatewayApi.js';
import type { DeviceRecord, MessageRecord } from '../api/types.js';
import type { CsvColumn } from '../format/csv.js';
import { toEpochMs } from '../format/timeFormat.js';
import type { LiveRules } from '../live/livePage.js';
import { knownModem, modemLabel } from '../modems/modemLabel.js';

/** Pure rules of the Messages screen: what a row shows, which live updates it takes, CSV columns. */

/** The state timeline in the order the states were reached. */
export function stateTimeline(message: MessageRecord): { state: string; at: string }[] {
  return Object.entries(message.states)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([state, at]) => ({ state, at }))
    .sort((a, b) => toEpochMs(a.at) - toEpochMs(b.at));
}

export function messageText(message: MessageRecord): string {
  if (message.textMessage) return message.textMessage.text;
  if (message.dataMessage) return `[data to port ${message.dataMessage.port}] ${message.dataMessage.data}`;
  if (message.mmsMessage) return mmsText(message.mmsMessage);
  return '';
}

/** "[MMS: Your order] Here is the receipt (receipt.jpg, image/jpeg, 879 KB)". */
function mmsText(mms: NonNullable<MessageRecord['mmsMessage']>): string {
  const subject = mms.subject ? `[MMS: ${mms.subject}]` : '[MMS]';
  const attachments = mms.attachments.map(
    (attachment) =>
      `(${[attachment.name, attachment.contentType].filter(Boolean).join(', ')}, ${Math.max(1, Math.round(attachment.size / 1024))} KB)`,
  );
  return [subject, mms.text, ...attachments].filter(Boolean).join(' ');
}

/**
 * Whether a message pushed by the live stream belongs in the list under `filter`, mirroring the
 * server's filters (state, modem, time range, substring of text or number).
 */
export function matchesMessageFilter(message: MessageRecord, filter: MessageFilter): boolean {
  if (filter.state && message.state !== filter.state) return false;
  if (filter.anyRecipientFailed && failedRecipients(message).length === 0) return false;
  if (filter.deviceId && message.deviceId !== filter.deviceId) return false;
  const acceptedMs = toEpochMs(message.createdAt);
  if (filter.from && acceptedMs < toEpochMs(filter.from)) return false;
  if (filter.to && acceptedMs > toEpochMs(filter.to)) return false;
  const search = foldText(filter.search?.trim() ?? '');
  if (search) {
    const haystack = [messageText(message), ...message.recipients.map((recipient) => recipient.phoneNumber)];
    if (!haystack.some((value) => foldText(value).includes(search))) return false;
  }
  return true;
}

/** The recipients that failed: on a message that stays Sent, those the state does not show. */
export function failedRecipients(message: MessageRecord): MessageRecord['recipients'] {
  return message.recipients.filter((recipient) => recipient.state === 'Failed');
}

/** How the Messages list takes live updates (see `live/livePage.ts`). */
export function messageLiveRules(filter: MessageFilter): LiveRules<MessageRecord> {
  return {
    id: (message) => message.id,
    listedAt: (message) => toEpochMs(message.createdAt),
    // A row that stops matching (e.g. the Pending filter and it was sent) stays until the next
    // reload, updated, so it does not vanish under the user's pointer.
    matches: (message) => matchesMessageFilter(message, filter),
    // The POST's answer can arrive after the live events of the same message: never go back.
    isBehind,
  };
}

/**
 * Whether `update` is an older version of `current`: its last state change is earlier, or as
 * early with fewer states reached. States only accumulate, each with its time; a requeue goes
 * back to Pending with the same states, a tie, and a tie takes the update.
 */
function isBehind(update: MessageRecord, current: MessageRecord): boolean {
  const latest = (message: MessageRecord) => toEpochMs(stateTimeline(message).at(-1)?.at ?? '') || 0;
  const [updated, known] = [latest(update), latest(current)];
  if (updated !== known) return updated < known;
  return Object.keys(update.states).length < Object.keys(current.states).length;
}

/** CSV columns of a message export; modems by the name staff gave them, not by id. */
export const messageCsvColumns = (
  devices: readonly DeviceRecord[] | undefined,
): CsvColumn<MessageRecord>[] => [
  { header: 'id', value: (message) => message.id },
  { header: 'state', value: (message) => message.state },
  { header: 'accepted_at', value: (message) => message.createdAt },
  {
    header: 'recipients',
    value: (message) => message.recipients.map((recipient) => recipient.phoneNumber).join(' '),
    phone: true,
  },
  {
    header: 'recipient_states',
    value: (message) =>
      message.recipients
        .map(
          (recipient) =>
            `${recipient.phoneNumber}=${recipient.state}${recipient.error ? ` (${recipient.error})` : ''}`,
        )
        .join('; '),
  },
  { header: 'text', value: messageText },
  {
    header: 'modem',
    value: (message) => {
      const modem = knownModem(devices, message.deviceId);
      return modem && modemLabel(modem);
    },
  },
  { header: 'device_id', value: (message) => message.deviceId },
  { header: 'sim_number', value: (message) => message.simNumber },
  { header: 'priority', value: (message) => message.priority },
  { header: 'sent_at', value: (message) => message.states.Sent },
  { header: 'delivered_at', value: (message) => message.states.Delivered },
  { header: 'failed_at', value: (message) => message.states.Failed },
];
