import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { IncomingRecord } from '../../server/contract/domain/incoming.js';
import { ContactRepository } from '../../server/services/desk/contacts/contactRepository.js';
import { incomingRow, SqliteInboxRepository } from '../../server/store/inboxRepository.js';
import { SqliteMessageRepository } from '../../server/store/messageRepository.js';
import {
  listedPage,
  message,
  openTestDatabase,
  rollBackSchema,
  schemaTwentyThreeMessageRow,
  type TestDatabase,
  temporaryDirectory,
} from './storeTestKit.js';

/**
 * Every text search of the store (messages, inbox, contacts) ignores accents and case: the
 * searched text is kept folded and the needle folded the same way (server/contract/domain/textFold.ts,
 * schema step 16).
 */
const start = Date.UTC(2026, 0, 1);

function texted(id: string, text: string, at: number) {
  return message({
    id,
    createdAt: at,
    content: { kind: 'text', text },
    recipients: [{ phoneNumber: '+15550000001', state: 'Sent' }],
    state: 'Sent',
    states: { Pending: at, Sent: at },
  });
}

function received(id: string, content: string, at: number): IncomingRecord {
  return {
    id,
    type: 'SMS',
    deviceId: 'modem-1',
    simNumber: 1,
    sender: '+15550009999',
    content,
    receivedAt: at,
  };
}

describe('text search without regard to accents and case', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let messages: SqliteMessageRepository;
  let inbox: SqliteInboxRepository;
  let contacts: ContactRepository;

  const open = () => {
    database = openTestDatabase(dir.path);
    messages = new SqliteMessageRepository(database.db, database.commits, database.pages);
    inbox = new SqliteInboxRepository(database.db, database.commits, database.pages);
    contacts = new ContactRepository(database.db, database.commits, new ManualClock(start));
  };

  beforeEach(async () => {
    dir = await temporaryDirectory();
    open();
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  /** What each list finds for `search`: message ids, received ids, contact names. */
  const found = async (search: string) => ({
    messages: (await listedPage(messages, { limit: 10, offset: 0, search })).items.map((item) => item.id),
    inbox: (await inbox.list({ limit: 10, offset: 0, search })).items.map((item) => item.id),
    contacts: contacts.list({ limit: 10, offset: 0, search }).items.map((contact) => contact.name),
  });

  it('finds "Müller" by Muller, MULLER and müller, through the index and by a scan alike', async () => {
    await messages.insert(texted('to-mueller', 'Grüße an Frau Müller', start));
    await messages.insert(texted('other', 'Your order is ready', start + 1));
    await inbox.insert(received('from-mueller', 'Hier ist MÜLLER, bitte zurückrufen', start));
    await inbox.insert(received('other', 'Thanks', start + 1));
    await contacts.create({ name: 'Jürgen Müller', phoneNumber: '+491707000001' });
    await contacts.create({ name: 'Eva Baker', phoneNumber: '+491601111111' });
    const mueller = { messages: ['to-mueller'], inbox: ['from-mueller'], contacts: ['Jürgen Müller'] };
    // Trigram phrases (three code points or more)…
    for (const typed of ['Muller', 'MULLER', 'müller', 'MüLLeR']) expect(await found(typed)).toEqual(mueller);
    // …and needles too short for a trigram, looked for in the rows.
    expect(await found('ül')).toEqual(mueller);
    expect(await found('ul')).toEqual(mueller);
  });

  it('finds letters that carry their mark inside them as typed without it', async () => {
    await messages.insert(texted('street', 'Hauptstraße 5, Søren Łukasz', start));
    expect((await found('strasse')).messages).toEqual(['street']);
    expect((await found('soren lukasz')).messages).toEqual(['street']);
  });

  it('folds what a database stored before the step (schema step 16)', async () => {
    // As the build before wrote them: the searched text lowercased, its accents kept.
    rollBackSchema(database.db, 15);
    const record = texted('old-message', 'Café crème für José', start);
    database.db
      .prepare(
        `INSERT INTO messages (id, created_at, seq, state, state_at, device_id, failed_recipients, search, body,
           view, view_content)
         VALUES (@id, @created_at, @seq, @state, @state_at, @device_id, @failed_recipients, @search, @body,
           @view, @view_content)`,
      )
      .run({ ...schemaTwentyThreeMessageRow(record), search: 'café crème für josé\n+15550000001' });
    database.db
      .prepare(
        `INSERT INTO inbox (id, received_at, type, device_id, search, body)
         VALUES (@id, @received_at, @type, @device_id, @search, @body)`,
      )
      .run({
        ...incomingRow(received('old-received', 'Merci José', start)),
        search: '+15550009999\nmerci josé',
      });
    database.db
      .prepare(
        `INSERT INTO desk_contacts (id, phone_number, name, notes, search, updated_at)
         VALUES ('c1', '+33612345678', 'José Café', '', 'josé café\n+33612345678\n', ${start})`,
      )
      .run();
    await database.close();
    open();
    expect(await found('jose')).toEqual({
      messages: ['old-message'],
      inbox: ['old-received'],
      contacts: ['José Café'],
    });
    expect((await found('CREME FUR')).messages).toEqual(['old-message']);
  });
});
