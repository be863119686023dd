import type { MessageRecord, RecipientRecord } from '../../domain/message.js';
import type { MessageView } from '../../domain/messageView.js';

/**
 * How a message's record is spread over its row (schema steps 17 and 19), so that it is not
 * stored three times over: the columns hold its id, creation time, sequence, state and device;
 * the stored view (`view`, `view_content`, messageView.ts) the rest of what the API shows; and
 * `body` what neither holds, plus what SQL reads from the record (`recordOwnFields`): the state
 * times in ms (the chart's count triggers), each recipient's state beside its parts and report
 * times, the requested device, the app, the schedule and expiry as numbers, and any field the
 * view does not show. `recordOfColumns` merges the three back into the record as it was written.
 *
 * The schema reads `withDeliveryReport` from the view; the `deviceId` marker below tells a
 * requested device from a taking one.
 */

/** The columns a record is read back from, in the order `recordColumns` selects them. */
export interface MessageRecordColumns {
  id: string;
  created_at: number;
  seq: number;
  state: MessageRecord['state'];
  device_id: string | null;
  body: string;
  view: string;
  view_content: string;
}

/** The select list of `MessageRecordColumns`, for a table aliased `alias` if given. */
export function recordColumns(alias = ''): string {
  return ['id', 'created_at', 'seq', 'state', 'device_id', 'body', 'view', 'view_content']
    .map((column) => `${alias}${column}`)
    .join(', ');
}

/**
 * What only the record holds. `device_id` is the modem that took the message, else the one it
 * was asked for; `deviceId: null` marks the second case (no modem has taken it), so that it
 * reads back as a requested device only.
 */
type OwnFields = Omit<
  MessageRecord,
  | 'id'
  | 'createdAt'
  | 'sequence'
  | 'state'
  | 'content'
  | 'recipients'
  | 'deviceId'
  | 'simulated'
  | 'source'
  | 'isEncrypted'
  | 'priority'
  | 'simNumber'
  | 'withDeliveryReport'
> & {
  deviceId?: null;
  recipients: Omit<RecipientRecord, 'phoneNumber' | 'error' | 'failure'>[];
};

/** The `body` of a message's row: the record without what its columns and view hold. */
export function recordOwnFields(record: MessageRecord): string {
  const {
    id: _id,
    createdAt: _createdAt,
    sequence: _sequence,
    state: _state,
    content: _content,
    recipients,
    deviceId,
    simulated: _simulated,
    source: _source,
    isEncrypted: _isEncrypted,
    priority: _priority,
    simNumber: _simNumber,
    withDeliveryReport: _withDeliveryReport,
    ...own
  } = record;
  const fields: OwnFields = {
    ...own,
    recipients: recipients.map(
      ({ phoneNumber: _phoneNumber, error: _error, failure: _failure, ...kept }) => kept,
    ),
  };
  if (deviceId === undefined && record.requestedDeviceId !== undefined) fields.deviceId = null;
  return JSON.stringify(fields);
}

/** The record a row holds, merged from its columns, its stored view and `body`. */
export function recordOfColumns(row: MessageRecordColumns): MessageRecord {
  const { deviceId: unassigned, recipients: ownRecipients, ...own } = JSON.parse(row.body) as OwnFields;
  const view = JSON.parse(row.view) as MessageView;
  const shown = JSON.parse(row.view_content) as Pick<MessageView, 'textMessage' | 'dataMessage'>;
  const record: MessageRecord = {
    id: row.id,
    ...(unassigned === null || row.device_id === null ? {} : { deviceId: row.device_id }),
    ...(view.simulated && { simulated: view.simulated }),
    ...(view.source && { source: view.source }),
    content: shown.dataMessage
      ? { kind: 'data', data: shown.dataMessage.data, port: shown.dataMessage.port }
      : { kind: 'text', text: shown.textMessage?.text ?? '' },
    recipients: view.recipients.map((shownRecipient, index) => ({
      ...shownRecipient,
      ...ownRecipients[index],
    })),
    ...(view.simNumber === undefined ? {} : { simNumber: view.simNumber }),
    withDeliveryReport: view.withDeliveryReport ?? false,
    priority: view.priority ?? 0,
    isEncrypted: view.isEncrypted,
    ...own,
    createdAt: row.created_at,
    sequence: row.seq,
    state: row.state,
  };
  return record;
}
