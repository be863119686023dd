import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { toMessageView } from '../../server/contract/domain/messageView.js';
import { messageRow, SqliteMessageRepository } from '../../server/store/messageRepository.js';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { recordOfColumns } from '../../server/store/sqlite/messageRecordColumns.js';
import { registerStoredViewFunctions, schemaSteps } from '../../server/store/sqlite/schema.js';
import { registerSearchFunctions } from '../../server/store/sqlite/searchIndex.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import {
  listedPage,
  listForm,
  message,
  openTestDatabase,
  schemaTwentyThreeMessageRow,
  temporaryDirectory,
} from './storeTestKit.js';

const at = Date.UTC(2026, 5, 1, 12);

/** Records that use every field a message can have, each way the view shows or hides it. */
const records: [name: string, record: MessageRecord][] = [
  ['a queued text message', message({ id: 'queued' })],
  [
    'a delivered message taken by a modem, with its parts and report times',
    message({
      id: 'delivered',
      deviceId: 'modem-1',
      state: 'Delivered',
      withDeliveryReport: true,
      simNumber: 2,
      priority: 100,
      recipients: [
        {
          phoneNumber: '+15550000001',
          state: 'Delivered',
          parts: [{ reference: 7, reportStatus: 0 }, { reference: 8 }],
          updatedAt: at + 4_000,
        },
        {
          phoneNumber: '+15550000002',
          state: 'Failed',
          error: 'CMS ERROR 500',
          failure: { code: 'modem-refused', modemCode: 500 },
          parts: [{}],
          updatedAt: at + 900,
        },
      ],
      states: { Pending: at, Processed: at + 50, Sent: at + 900, Delivered: at + 4_000 },
    }),
  ],
  [
    'a message asked for one modem that none has taken yet',
    message({
      id: 'requested',
      requestedDeviceId: 'modem-2',
      scheduleAt: at + 60_000,
      validUntil: at + 3_600_000,
    }),
  ],
  [
    'a message asked for one modem and taken by it',
    message({ id: 'requested-taken', requestedDeviceId: 'modem-2', deviceId: 'modem-2', state: 'Processed' }),
  ],
  [
    'a data message of an app, through the simulated modem, from the fleet server',
    message({
      id: 'data',
      content: { kind: 'data', data: 'AAEC', port: 2948 },
      deviceId: 'simulated',
      simulated: true,
      source: 'server',
      appId: 'shop',
      isEncrypted: true,
      ignoreOptOut: true,
      deviceActiveWithinHours: 12,
      batchSequence: 40,
      sequence: 41,
    }),
  ],
  ['an empty text', message({ id: 'empty', content: { kind: 'text', text: '' } })],
];

describe("a message's row", () => {
  it.each(records)('gives back %s as it was written', (_name, record) => {
    expect(recordOfColumns(messageRow(record))).toEqual(record);
  });

  it('keeps in its body none of what the columns hold, and the flags only off their defaults', () => {
    const [, record] = records[1] as [string, MessageRecord];
    const { body } = messageRow(record);
    for (const column of ['"id"', 'modem-1', 'createdAt', 'sequence']) {
      expect(body).not.toContain(column);
    }
    expect(JSON.parse(body)).toEqual({
      text: 'hello delivered',
      recipients: record.recipients,
      simNumber: 2,
      states: record.states,
      priority: 100,
    });
    const [, data] = records[4] as [string, MessageRecord];
    expect(JSON.parse(messageRow(data).body)).toMatchObject({
      data: 'AAEC',
      port: 2948,
      withDeliveryReport: false,
      isEncrypted: true,
    });
  });
});

describe('a database whose views held the id and the device', () => {
  /** The schema step that leaves them to the columns. */
  const viewsWithoutIdStep = schemaSteps.findIndex((step) => step.includes("json_remove(view, '$.id'"));

  it('lists its messages as before, from views without them', async () => {
    expect(viewsWithoutIdStep).toBeGreaterThan(0);
    const dir = await temporaryDirectory();
    try {
      const [, taken] = records[1] as [string, MessageRecord];
      const [, unassigned] = records[0] as [string, MessageRecord];
      const older = openSqlite(join(dir.path, databaseFileName));
      registerStoredViewFunctions(older);
      registerSearchFunctions(older);
      for (const step of schemaSteps.slice(0, viewsWithoutIdStep)) older.exec(step);
      older.pragma(`user_version = ${viewsWithoutIdStep}`);
      const insert = older.prepare(
        `INSERT INTO messages (id, created_at, seq, state, state_at, device_id, search, body, view, view_content)
         VALUES (@id, @created_at, @seq, @state, @state_at, @device_id, @search, @body, @view, @view_content)`,
      );
      for (const record of [taken, unassigned]) {
        const row = schemaTwentyThreeMessageRow(record);
        const { deviceId } = toMessageView(record, false, undefined);
        insert.run({ ...row, view: JSON.stringify({ id: record.id, ...JSON.parse(row.view), deviceId }) });
      }
      older.close();

      const database = openTestDatabase(dir.path);
      try {
        const repository = new SqliteMessageRepository(database.db, database.commits, database.pages);
        const page = await listedPage(repository, { limit: 5, offset: 0, oldestFirst: true });
        expect(page.items).toEqual(
          [taken, unassigned].map((record) => toMessageView(record, true, listForm.unassignedDeviceId)),
        );
        const columns = database.db.prepare('SELECT name FROM pragma_table_info(?)').all('messages');
        expect(columns).not.toContainEqual({ name: 'view' });
      } finally {
        await database.close();
      }
    } finally {
      await dir.remove();
    }
  });
});
