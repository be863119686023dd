import type { MessageContent, MessageRecord } from '../../contract/domain/message.js';

/**
 * How a message's record is spread over its row (schema step 24), each fact stored once: the
 * columns hold its id, creation time, sequence, state and device; `body` the rest, as JSON that
 * the schema's SQL reads (the state times in ms for the chart's count triggers, the recipients'
 * states, `withDeliveryReport` for the waiting-for-report counts, the app). The content is its
 * text (`text`), or its data and port (`data`, `port`), or an MMS's subject, text and attachments
 * without their bytes (`mms`, store/messageAttachments.ts keeps those); a flag at its default is left out
 * (`withDeliveryReport` true, `priority` 0, `isEncrypted` false), which the SQL that reads one
 * knows. `recordOfColumns` gives the record back as it was written; pages and GET by id render
 * the API view from it (`toMessageView`).
 */

/** The columns a record is read back from, in the order `recordColumns` selects them. */
export interface MessageRecordColumns {
  id: string;
  created_at: number;
  seq: number;
  state: MessageRecord['state'];
  device_id: string | null;
  body: string;
}

/** The names of `MessageRecordColumns`, in their select order. */
const recordColumnNames = ['id', 'created_at', 'seq', 'state', 'device_id', 'body'] as const;

/** The select list of `MessageRecordColumns`, for a table aliased `alias` if given. */
export function recordColumns(alias = ''): string {
  return recordColumnNames.map((column) => `${alias}${column}`).join(', ');
}

/**
 * `body`. `device_id` is the modem that took the message, else the one it was asked for;
 * `deviceId: null` marks the second case (no modem has taken it), so that it reads back as a
 * requested device only.
 */
type StoredBody = Omit<
  MessageRecord,
  | 'id'
  | 'createdAt'
  | 'sequence'
  | 'state'
  | 'content'
  | 'deviceId'
  | 'withDeliveryReport'
  | 'priority'
  | 'isEncrypted'
> & {
  deviceId?: null;
  text?: string;
  data?: string;
  port?: number;
  mms?: Omit<Extract<MessageContent, { kind: 'mms' }>, 'kind'>;
  withDeliveryReport?: false;
  priority?: number;
  isEncrypted?: true;
};

/** The `body` of a message's row: the record without what its columns hold. */
export function recordOwnFields(record: MessageRecord): string {
  const {
    id: _id,
    createdAt: _createdAt,
    sequence: _sequence,
    state: _state,
    content,
    deviceId,
    withDeliveryReport,
    priority,
    isEncrypted,
    ...own
  } = record;
  const body: StoredBody = {
    ...storedContent(content),
    ...own,
  };
  if (deviceId === undefined && record.requestedDeviceId !== undefined) body.deviceId = null;
  if (!withDeliveryReport) body.withDeliveryReport = false;
  if (priority !== 0) body.priority = priority;
  if (isEncrypted) body.isEncrypted = true;
  return JSON.stringify(body);
}

function storedContent(content: MessageContent): Pick<StoredBody, 'text' | 'data' | 'port' | 'mms'> {
  switch (content.kind) {
    case 'text':
      return { text: content.text };
    case 'data':
      return { data: content.data, port: content.port };
    case 'mms': {
      const { kind: _kind, ...mms } = content;
      return { mms };
    }
  }
}

function contentOf({ text, data, port, mms }: StoredBody): MessageContent {
  if (mms !== undefined) return { kind: 'mms', ...mms };
  return data === undefined ? { kind: 'text', text: text ?? '' } : { kind: 'data', data, port: port ?? 0 };
}

/** The record a row holds, merged from its columns and `body`. */
export function recordOfColumns(row: MessageRecordColumns): MessageRecord {
  const body = JSON.parse(row.body) as StoredBody;
  const {
    deviceId: unassigned,
    text: _text,
    data: _data,
    port: _port,
    mms: _mms,
    withDeliveryReport,
    priority,
    isEncrypted,
    ...own
  } = body;
  return {
    id: row.id,
    ...(unassigned === null || row.device_id === null ? {} : { deviceId: row.device_id }),
    content: contentOf(body),
    ...own,
    withDeliveryReport: withDeliveryReport ?? true,
    priority: priority ?? 0,
    isEncrypted: isEncrypted ?? false,
    createdAt: row.created_at,
    sequence: row.seq,
    state: row.state,
  };
}
