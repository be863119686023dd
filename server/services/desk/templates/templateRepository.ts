import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../clock/clock.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { GroupCommit } from '../../../store/sqlite/groupCommit.js';
import { type Database, isUniqueViolation, type Statement } from '../../../store/sqlite/sqlite.js';

/** A saved text with placeholders (`domain/placeholders.ts`), picked in Compose and the reply box. */
export interface Template {
  id: string;
  name: string;
  text: string;
  updatedAt: number;
}

export interface TemplateInput {
  name: string;
  text: string;
}

/** Templates by name (unique regardless of case). Writes resolve once durable. */
export class TemplateRepository {
  private readonly selectAll: Statement<[], Template>;
  private readonly selectOne: Statement<[string], Template>;
  private readonly upsertRow: Statement<{ id: string; name: string; text: string; updated_at: number }>;
  private readonly deleteRow: Statement<[string]>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
    private readonly clock: Clock,
  ) {
    const columns = 'SELECT id, name, text, updated_at AS updatedAt FROM desk_templates';
    this.selectAll = db.prepare(`${columns} ORDER BY name COLLATE NOCASE`);
    this.selectOne = db.prepare(`${columns} WHERE id = ?`);
    this.upsertRow = db.prepare(
      `INSERT INTO desk_templates (id, name, text, updated_at) VALUES (@id, @name, @text, @updated_at)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, text = excluded.text, updated_at = excluded.updated_at`,
    );
    this.deleteRow = db.prepare('DELETE FROM desk_templates WHERE id = ?');
  }

  list(): Template[] {
    return this.selectAll.all();
  }

  get(id: string): Template {
    const template = this.selectOne.get(id);
    if (!template) throw new GatewayError(ErrorCode.NotFound, `template ${id} not found`, { field: 'id' });
    return template;
  }

  create(input: TemplateInput): Promise<Template> {
    return this.save(randomUUID(), input);
  }

  replace(id: string, input: TemplateInput): Promise<Template> {
    this.get(id);
    return this.save(id, input);
  }

  async remove(id: string): Promise<void> {
    this.get(id);
    await this.commits.write(() => this.deleteRow.run(id)).durable;
  }

  private async save(id: string, input: TemplateInput): Promise<Template> {
    let durable: Promise<void>;
    try {
      durable = this.commits.write(() =>
        this.upsertRow.run({ id, name: input.name, text: input.text, updated_at: this.clock.now() }),
      ).durable;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new GatewayError(
        ErrorCode.Conflict,
        `name: a template called ${JSON.stringify(input.name)} exists`,
        {
          field: 'name',
        },
      );
    }
    await durable;
    return this.get(id);
  }
}
