import { foldText } from '../../../server/contract/domain/textFold.js';
import type { InboxFilter } from '../api/gatewayApi.js';
import type { DeviceRecord, InboxRecord, IncomingEvent } from '../api/types.js';
import type { CsvColumn } from '../format/csv.js';
import { toEpochMs } from '../format/timeFormat.js';
import type { LiveRules } from '../live/livePage.js';
import { modemLabelById } from '../modems/modemLabel.js';

/** The live stream's `incoming` event as an inbox row (the shape GET /inbox returns). */
export function inboxRecordFromEvent(event: IncomingEvent): InboxRecord {
  return {
    id: event.id,
    type: event.type,
    sender: event.sender,
    simNumber: event.simNumber,
    deviceId: event.deviceId,
    contentPreview: event.content,
    createdAt: new Date(event.receivedAt).toISOString(),
  };
}

export function matchesInboxFilter(record: InboxRecord, filter: InboxFilter): boolean {
  if (filter.type && record.type !== filter.type) return false;
  if (filter.deviceId && record.deviceId !== undefined && record.deviceId !== filter.deviceId) return false;
  const at = toEpochMs(record.createdAt);
  if (filter.from && at < toEpochMs(filter.from)) return false;
  if (filter.to && at > toEpochMs(filter.to)) return false;
  const search = foldText(filter.search?.trim() ?? '');
  if (search && !foldText(`${record.sender}\n${record.contentPreview}`).includes(search)) return false;
  return true;
}

/** How the Inbox list takes live arrivals (see `live/livePage.ts`). */
export function inboxLiveRules(filter: InboxFilter): LiveRules<InboxRecord> {
  return {
    id: (record) => record.id,
    listedAt: (record) => toEpochMs(record.createdAt),
    matches: (record) => matchesInboxFilter(record, filter),
  };
}

/** CSV columns of an Inbox export; modems by the name staff gave them, not by id. */
export const inboxCsvColumns = (devices: readonly DeviceRecord[] | undefined): CsvColumn<InboxRecord>[] => [
  { header: 'id', value: (record) => record.id },
  { header: 'received_at', value: (record) => record.createdAt },
  { header: 'type', value: (record) => record.type },
  { header: 'sender', value: (record) => record.sender, phone: true },
  { header: 'recipient', value: (record) => record.recipient, phone: true },
  { header: 'modem', value: (record) => record.deviceId && modemLabelById(devices, record.deviceId) },
  { header: 'device_id', value: (record) => record.deviceId },
  { header: 'sim_number', value: (record) => record.simNumber },
  { header: 'text', value: (record) => record.contentPreview },
];
