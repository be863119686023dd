import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { GroupMember } from '../../server/contract/domain/contacts.js';
import { ContactRepository } from '../../server/services/desk/contacts/contactRepository.js';
import { GroupRepository } from '../../server/services/desk/contacts/groupRepository.js';
import { type TestDatabase, temporaryDirectory } from '../store/storeTestKit.js';
import { openRecordingDatabase } from './deskDatabase.js';

/**
 * A campaign to a group reads its members a page at a time (`membersPage`), each page after the
 * last member of the one before, so a group of 50,000 never holds the event loop in one query.
 * Names that differ only in case sort together; the number breaks every tie.
 */
describe('a group read page by page', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let contacts: ContactRepository;
  let groups: GroupRepository;
  let preparedTexts: string[];

  beforeEach(async () => {
    dir = await temporaryDirectory();
    preparedTexts = [];
    database = openRecordingDatabase(dir.path, preparedTexts);
    contacts = new ContactRepository(database.db, database.commits, new ManualClock(Date.UTC(2026, 0, 1)));
    groups = new GroupRepository(database.db, database.commits);
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  it('lists every member of either group once, in name then number order, across pages', async () => {
    const staff = await groups.create('staff');
    const customers = await groups.create('customers');
    const others = await groups.create('others');
    const names = ['anna', 'Anna', 'ANNA', 'Bob', 'bob', 'Zoë'];
    const inputs = Array.from({ length: 1_203 }, (_, index) => ({
      phoneNumber: `+4477009${String(index).padStart(5, '0')}`,
      name: names[index % names.length] ?? 'x',
      notes: '',
      // Every third contact in both groups (it must come once), every seventh in neither.
      groupIds:
        index % 7 === 0
          ? [others.id]
          : index % 3 === 0
            ? [staff.id, customers.id]
            : [index % 2 === 0 ? staff.id : customers.id],
    }));
    await contacts.upsertMany(() => inputs);

    const read: GroupMember[] = [];
    const pageSizes: number[] = [];
    let after: GroupMember | undefined;
    for (;;) {
      const page = contacts.membersPage([staff.id, customers.id], after, 250);
      read.push(...page);
      pageSizes.push(page.length);
      after = page.at(-1);
      if (page.length < 250) break;
    }

    const expected = inputs
      .filter((input) => !input.groupIds.includes(others.id))
      .map((input) => ({ name: input.name, phoneNumber: input.phoneNumber }))
      .sort(
        (a, b) =>
          a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
          a.phoneNumber.localeCompare(b.phoneNumber),
      );
    expect(expected).toHaveLength(1_031);
    expect(read).toEqual(expected);
    expect(pageSizes).toEqual([250, 250, 250, 250, 31]);
    // A page after the first seeks the name index: it neither scans from the start nor sorts.
    const [pageAfter] = preparedTexts.filter((sql) => sql.includes('@phoneNumber'));
    const plan = (
      database.db.prepare(`EXPLAIN QUERY PLAN ${pageAfter}`).all({
        group0: staff.id,
        group1: customers.id,
        name: 'b',
        phoneNumber: '+',
        limit: 1,
      }) as { detail: string }[]
    )
      .map((step) => step.detail)
      .join('\n');
    expect(plan).toContain('SEARCH c USING INDEX desk_contacts_by_name (name>?)');
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('reads nothing for no groups', () => {
    expect(contacts.membersPage([], undefined, 10)).toEqual([]);
  });
});
