import { randomUUID } from 'node:crypto';
import type { Group } from '../../../contract/domain/contacts.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { GroupCommit } from '../../../store/sqlite/groupCommit.js';
import { type Database, isUniqueViolation, type Statement } from '../../../store/sqlite/sqlite.js';

/** Contact groups ("Customers", "Staff"): names unique regardless of case. Writes resolve once durable. */
export class GroupRepository {
  private readonly selectAll: Statement<[], Group>;
  private readonly selectOne: Statement<[string], Group>;
  private readonly selectByName: Statement<[string], { id: string }>;
  private readonly insertRow: Statement<{ id: string; name: string }>;
  private readonly renameRow: Statement<{ id: string; name: string }>;
  private readonly deleteRow: Statement<[string]>;
  private readonly deleteMemberships: Statement<[string]>;

  constructor(
    private readonly db: Database,
    private readonly commits: GroupCommit,
  ) {
    const withSize = `SELECT g.id, g.name, (SELECT count(*) FROM desk_memberships m WHERE m.group_id = g.id) AS size
      FROM desk_groups g`;
    this.selectAll = db.prepare(`${withSize} ORDER BY g.name COLLATE NOCASE`);
    this.selectOne = db.prepare(`${withSize} WHERE g.id = ?`);
    this.selectByName = db.prepare('SELECT id FROM desk_groups WHERE name = ?');
    this.insertRow = db.prepare('INSERT INTO desk_groups (id, name) VALUES (@id, @name)');
    this.renameRow = db.prepare('UPDATE desk_groups SET name = @name WHERE id = @id');
    this.deleteRow = db.prepare('DELETE FROM desk_groups WHERE id = ?');
    this.deleteMemberships = db.prepare('DELETE FROM desk_memberships WHERE group_id = ?');
  }

  list(): Group[] {
    return this.selectAll.all();
  }

  get(id: string): Group {
    const group = this.selectOne.get(id);
    if (!group) throw new GatewayError(ErrorCode.NotFound, `group ${id} not found`, { field: 'id' });
    return group;
  }

  /** Ids of groups, in the order given; throws naming `field` when one is unknown. */
  checkIds(ids: readonly string[], field: string): void {
    for (const [index, id] of ids.entries()) {
      if (!this.selectOne.get(id)) {
        throw new GatewayError(ErrorCode.ValidationFailed, `${field}[${index}]: group ${id} does not exist`, {
          field: `${field}[${index}]`,
        });
      }
    }
  }

  /**
   * The group of that name (any case), created when missing: what a CSV's "groups" column names.
   * Writes without its own commit: call it only inside a `commits.write` (the import's transaction).
   */
  idForName(name: string): string {
    const found = this.selectByName.get(name);
    if (found) return found.id;
    const id = randomUUID();
    this.insertRow.run({ id, name });
    return id;
  }

  async create(name: string): Promise<Group> {
    const id = randomUUID();
    await this.write(() => this.insertRow.run({ id, name }), name);
    return this.get(id);
  }

  async rename(id: string, name: string): Promise<Group> {
    this.get(id);
    await this.write(() => this.renameRow.run({ id, name }), name);
    return this.get(id);
  }

  /** Removes the group, not its contacts. */
  async remove(id: string): Promise<void> {
    this.get(id);
    await this.commits.write(
      this.db.transaction(() => {
        this.deleteMemberships.run(id);
        this.deleteRow.run(id);
      }),
    ).durable;
  }

  private write(change: () => unknown, name: string): Promise<void> {
    try {
      return this.commits.write(change).durable;
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new GatewayError(ErrorCode.Conflict, `name: a group called ${JSON.stringify(name)} exists`, {
          field: 'name',
        });
      }
      throw error;
    }
  }
}
