import { omitNulls } from '../../contract/domain/apiJson.js';
import type { MessageRecord, RecipientRecord } from '../../contract/domain/message.js';
import { type MessageView, toMessageView } from '../../contract/domain/messageView.js';
import type { MessageRecordColumns } from './messageRecordColumns.js';

/**
 * A message's row as schema steps 11 to 22 laid it out, for the steps that write it (11, 17)
 * and step 24, which reads it once to write the row of today (messageRecordColumns.ts). Beside
 * `body`, the row held the message's API view (`view`) and its content (`view_content`).
 */
export interface LegacyMessageColumns extends MessageRecordColumns {
  view: string;
  view_content: string;
}

/**
 * The stored view of step 11: the API view without its content, id, device and state times
 * (steps 19 and 22 removed the last three from the views written before them), and the
 * content as a JSON object of its own.
 */
export interface StoredMessageView {
  view: string;
  content: string;
}

export function storedMessageView(message: MessageRecord): StoredMessageView {
  const {
    id: _id,
    deviceId: _deviceId,
    states: _states,
    textMessage,
    dataMessage,
    ...shown
  } = toMessageView(message, true, undefined);
  return {
    view: JSON.stringify(omitNulls(shown)),
    content: JSON.stringify(omitNulls({ textMessage, dataMessage })),
  };
}

/** What `body` held from step 17 on: the record without what the columns and the view hold. */
type LegacyOwnFields = Omit<
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

/** The `body` step 17 writes from a whole record. */
export function legacyOwnFields(record: MessageRecord): string {
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
  const fields: LegacyOwnFields = {
    ...own,
    recipients: recipients.map(
      ({ phoneNumber: _phoneNumber, error: _error, failure: _failure, ...kept }) => kept,
    ),
  };
  if (deviceId === undefined && record.requestedDeviceId !== undefined) fields.deviceId = null;
  return JSON.stringify(fields);
}

/** The record a row of steps 17 to 22 holds, merged from its columns, its view and `body`. */
export function recordOfLegacyColumns(row: LegacyMessageColumns): MessageRecord {
  const { deviceId: unassigned, recipients: ownRecipients, ...own } = JSON.parse(row.body) as LegacyOwnFields;
  const view = JSON.parse(row.view) as MessageView;
  const shown = JSON.parse(row.view_content) as Pick<MessageView, 'textMessage' | 'dataMessage'>;
  return {
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
}
