import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../clock/clock.js';
import type { Contact, ContactInput, ContactQuery, GroupMember } from '../../../contract/domain/contacts.js';
import { foldText } from '../../../contract/domain/textFold.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { Page } from '../../../store/repositories.js';
import type { GroupCommit } from '../../../store/sqlite/groupCommit.js';
import { QueryFilter, sqlLimit } from '../../../store/sqlite/queryFilter.js';
import { type Database, isUniqueViolation, type Statement } from '../../../store/sqlite/sqlite.js';
import { StatementCache } from '../../../store/sqlite/statementCache.js';

interface ContactRow {
  id: string;
  phone_number: string;
  name: string;
  notes: string;
  search: string;
  updated_at: number;
  group_ids: string | null;
}

/** How many bound parameters one `IN (…)` may take: far under SQLite's 32,766. */
const lookupChunk = 500;

/**
 * The address book: contacts with their group memberships, unique by E.164 number. Reads are
 * synchronous queries; every write is one statement or one transaction and resolves once durable.
 */
export class ContactRepository {
  private readonly queries: StatementCache;
  private readonly insertRow: Statement;
  private readonly updateRow: Statement;
  private readonly deleteRow: Statement<[string]>;
  private readonly selectIdByNumber: Statement<[string], { id: string }>;
  private readonly addMembership: Statement<{ group_id: string; contact_id: string }>;
  private readonly clearMemberships: Statement<[string]>;

  constructor(
    private readonly db: Database,
    private readonly commits: GroupCommit,
    private readonly clock: Clock,
  ) {
    this.queries = new StatementCache(db);
    this.insertRow = db.prepare(
      `INSERT INTO desk_contacts (id, phone_number, name, notes, search, updated_at)
       VALUES (@id, @phone_number, @name, @notes, @search, @updated_at)`,
    );
    this.updateRow = db.prepare(
      `UPDATE desk_contacts SET phone_number = @phone_number, name = @name, notes = @notes,
       search = @search, updated_at = @updated_at WHERE id = @id`,
    );
    this.deleteRow = db.prepare('DELETE FROM desk_contacts WHERE id = ?');
    this.selectIdByNumber = db.prepare('SELECT id FROM desk_contacts WHERE phone_number = ?');
    this.addMembership = db.prepare(
      'INSERT OR IGNORE INTO desk_memberships (group_id, contact_id) VALUES (@group_id, @contact_id)',
    );
    this.clearMemberships = db.prepare('DELETE FROM desk_memberships WHERE contact_id = ?');
  }

  /** By name (case-insensitive), then number; the search ignores case and accents. */
  list(query: ContactQuery): Page<Contact> {
    const needle = foldText(query.search?.trim() ?? '') || undefined;
    const filter = new QueryFilter()
      .when('search', needle, 'instr(c.search, @search) > 0')
      .when(
        'group',
        query.groupId,
        'c.id IN (SELECT contact_id FROM desk_memberships WHERE group_id = @group)',
      );
    const total = (
      this.queries
        .get(`SELECT count(*) AS total FROM desk_contacts c ${filter.where}`)
        .get(filter.params) as {
        total: number;
      }
    ).total;
    const rows = this.queries
      .get(
        `${selectContacts} ${filter.where} ORDER BY c.name COLLATE NOCASE, c.phone_number LIMIT @limit OFFSET @offset`,
      )
      .all({ ...filter.params, limit: sqlLimit(query.limit), offset: query.offset }) as ContactRow[];
    return { total, items: rows.map(contactOf) };
  }

  get(id: string): Contact {
    const row = this.queries.get(`${selectContacts} WHERE c.id = ?`).get(id) as ContactRow | undefined;
    if (!row) throw new GatewayError(ErrorCode.NotFound, `contact ${id} not found`, { field: 'id' });
    return contactOf(row);
  }

  findByNumber(phoneNumber: string): Contact | undefined {
    const row = this.queries.get(`${selectContacts} WHERE c.phone_number = ?`).get(phoneNumber) as
      | ContactRow
      | undefined;
    return row && contactOf(row);
  }

  /**
   * The name of each number that is in the address book (numbers not in it are left out): what
   * every screen showing a number, and every export, puts beside it.
   */
  namesOf(phoneNumbers: readonly string[]): Record<string, string> {
    const names: Record<string, string> = {};
    const distinct = [...new Set(phoneNumbers)];
    for (let start = 0; start < distinct.length; start += lookupChunk) {
      const chunk = distinct.slice(start, start + lookupChunk);
      const rows = this.queries
        .get(
          `SELECT phone_number, name FROM desk_contacts WHERE phone_number IN (${chunk.map(() => '?').join(',')})`,
        )
        .all(...chunk) as { phone_number: string; name: string }[];
      for (const row of rows) names[row.phone_number] = row.name;
    }
    return names;
  }

  /**
   * One page of the contacts in any of the groups, each once, by name, after `after` (the last
   * member of the page before): a group of 50,000 is read a page per turn of the event loop.
   * Each page seeks the name index past `after` and tests membership per contact, so no page
   * collects and sorts the whole group.
   */
  membersPage(groupIds: readonly string[], after: GroupMember | undefined, limit: number): GroupMember[] {
    if (groupIds.length === 0) return [];
    const groups = groupIds.map((_id, index) => `@group${index}`).join(',');
    // The plain `>=` lets SQLite seek the index; the row value then skips the ties already read.
    const pastAfter = after
      ? 'AND c.name COLLATE NOCASE >= @name AND (c.name COLLATE NOCASE, c.phone_number) > (@name, @phoneNumber)'
      : '';
    const rows = this.queries
      .get(
        `SELECT c.name, c.phone_number FROM desk_contacts c
         WHERE EXISTS (SELECT 1 FROM desk_memberships m WHERE m.contact_id = c.id AND m.group_id IN (${groups}))
         ${pastAfter}
         ORDER BY c.name COLLATE NOCASE, c.phone_number LIMIT @limit`,
      )
      .all({
        ...Object.fromEntries(groupIds.map((id, index) => [`group${index}`, id])),
        ...(after ? { name: after.name, phoneNumber: after.phoneNumber } : {}),
        limit,
      }) as { name: string; phone_number: string }[];
    return rows.map((row) => ({ name: row.name, phoneNumber: row.phone_number }));
  }

  async create(input: ContactInput): Promise<Contact> {
    const id = randomUUID();
    await this.write(() => this.insertContact(id, input), input.phoneNumber);
    return this.get(id);
  }

  /** Replaces name, number, notes and (when given) the groups. */
  async replace(id: string, input: ContactInput): Promise<Contact> {
    const existing = this.get(id);
    await this.write(() => this.updateContact(existing, input), input.phoneNumber);
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    this.get(id);
    await this.commits.write(
      this.db.transaction(() => {
        this.clearMemberships.run(id);
        this.deleteRow.run(id);
      }),
    ).durable;
  }

  /**
   * Creates or updates many contacts in one transaction, merging by number: an existing
   * contact keeps its id, and its name and notes where the row leaves them empty, and joins the
   * row's groups. `build` runs inside the transaction (so it may create the groups the rows
   * name): either everything lands or nothing does.
   */
  async upsertMany(build: () => readonly ContactInput[]): Promise<{ created: number; updated: number }> {
    const { value, durable } = this.commits.write(
      this.db.transaction(() => {
        const rows = build();
        let created = 0;
        for (const row of rows) {
          const existing = this.findByNumber(row.phoneNumber);
          if (existing) {
            this.updateContact(existing, {
              ...row,
              name: row.name || existing.name,
              notes: row.notes || existing.notes,
              groupIds: [...new Set([...existing.groupIds, ...(row.groupIds ?? [])])],
            });
          } else {
            this.insertContact(randomUUID(), row);
            created++;
          }
        }
        return { created, updated: rows.length - created };
      }),
    );
    await durable;
    return value;
  }

  private insertContact(id: string, input: ContactInput): void {
    this.db.transaction(() => {
      this.insertRow.run(rowOf(id, input, this.clock.now()));
      this.joinGroups(id, input.groupIds ?? []);
    })();
  }

  private updateContact(existing: Contact, input: ContactInput): void {
    this.db.transaction(() => {
      this.updateRow.run(
        rowOf(existing.id, { ...input, notes: input.notes ?? existing.notes }, this.clock.now()),
      );
      if (input.groupIds) {
        this.clearMemberships.run(existing.id);
        this.joinGroups(existing.id, input.groupIds);
      }
    })();
  }

  private joinGroups(contactId: string, groupIds: readonly string[]): void {
    for (const groupId of groupIds) this.addMembership.run({ group_id: groupId, contact_id: contactId });
  }

  private write(change: () => void, phoneNumber: string): Promise<void> {
    try {
      return this.commits.write(change).durable;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const owner = this.selectIdByNumber.get(phoneNumber)?.id;
      throw new GatewayError(
        ErrorCode.Conflict,
        `phoneNumber: ${phoneNumber} is already in the address book (contact ${owner})`,
        { field: 'phoneNumber' },
      );
    }
  }
}

const selectContacts = `SELECT c.*, (SELECT group_concat(group_id, ',') FROM desk_memberships m WHERE m.contact_id = c.id) AS group_ids
  FROM desk_contacts c`;

function rowOf(id: string, input: ContactInput, now: number): Omit<ContactRow, 'group_ids'> {
  const notes = input.notes ?? '';
  return {
    id,
    phone_number: input.phoneNumber,
    name: input.name,
    notes,
    search: foldText(`${input.name}\n${input.phoneNumber}\n${notes}`),
    updated_at: now,
  };
}

function contactOf(row: ContactRow): Contact {
  return {
    id: row.id,
    phoneNumber: row.phone_number,
    name: row.name,
    notes: row.notes,
    groupIds: row.group_ids ? row.group_ids.split(',') : [],
    updatedAt: row.updated_at,
  };
}
